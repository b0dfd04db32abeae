"""Conversations saved in the old shape (the asked block as a fence at the end of `content`, the call's
id in `tool_call_id`) load, show and continue as they did, and are kept in the new shape from then on."""

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from nicegui import app, ui
from nicegui.testing import User

from chat_ui import BlockState, ChatView, Message, ToolCall, chat_page
from chat_ui._model._migration import upgrade_history, upgrade_message
from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.nicegui_main_file("")

ARGUMENTS = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
    "context": "Both work with the ORM.",
}
FENCE = render_fence(ChoicePrompt.model_validate(ARGUMENTS))
CALL: ToolCall = {"id": "call_1", "name": "present_choices", "arguments": ARGUMENTS}


def old(content: str) -> dict[str, str]:
    """An assistant message as the old chat kept it when the model asked with a tool call."""
    return {"role": "assistant", "content": content, "tool_call_id": "call_1"}


def test_the_fence_at_the_end_becomes_the_call_and_the_text_before_it_the_content() -> None:
    assert upgrade_message(old(f"Two options work here.\n\n{FENCE}")) == {
        "role": "assistant",
        "content": "Two options work here.",
        "tool_call": CALL,
    }
    assert upgrade_message(old(FENCE)) == {"role": "assistant", "content": "", "tool_call": CALL}


def test_the_closing_line_the_old_chat_added_to_an_open_code_fence_stays_in_the_text() -> None:
    content = f"```python\nprint(1)\n```\n\n{FENCE}"  # the text ended inside "```python"
    assert upgrade_message(old(content))["content"] == "```python\nprint(1)\n```"


def test_a_message_changed_since_stays_the_text_it_was_shown_as() -> None:
    for content in ["edited since", f"{FENCE}\n\nand a word after", "```choices\n{}\n```"]:
        assert upgrade_message(old(content)) == {"role": "assistant", "content": content}


def test_only_old_messages_are_replaced_in_place() -> None:
    current: Message = {"role": "assistant", "content": "Hi", "tool_call": CALL}
    history: list[Any] = [{"role": "user", "content": "hi"}, old(f"Pick:\n\n{FENCE}"), current]
    first, _, last = history
    upgrade_history(history)
    assert history[0] is first
    assert history[1] == {"role": "assistant", "content": "Pick:", "tool_call": CALL}
    assert history[2] is last


class EchoAgent:
    """Says what it was given, so the test sees the conversation an agent gets after the upgrade."""

    def __init__(self) -> None:
        self.seen: list[list[Message]] = []

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        self.seen.append(list(history))
        yield f"You chose {history[-1]['content']}."


@pytest.fixture
async def user(user: User) -> AsyncIterator[User]:
    yield user
    await asyncio.sleep(0.05)  # the page's last updates, as in test_view.py


async def test_a_saved_old_conversation_shows_its_blocks_and_is_saved_in_the_new_shape(
    user: User,
) -> None:
    saved = json.loads(  # as NiceGUI's storage had it on disk
        json.dumps(
            [
                {"role": "assistant", "content": "Hello!"},
                {"role": "user", "content": "Set up a service"},
                old(f"Two options work here.\n\n{FENCE}"),
                {"role": "user", "content": "sqlite"},
                {"role": "assistant", "content": "SQLite it is."},
                {"role": "user", "content": "again"},
                old(f"Once more:\n\n{FENCE}"),
            ]
        )
    )
    agent = EchoAgent()
    views: list[ChatView] = []

    @ui.page("/")
    def page() -> None:
        app.storage.user.setdefault("chat_ui.history", saved)
        views.append(chat_page(agent))

    await user.open("/")
    await user.should_see("Two options work here.")
    await user.should_not_see('"question"')  # the block shows as buttons, not as its JSON
    groups = [group for item in views[0].log if hasattr(item, "body") for group in item.body.groups]
    assert [group.state for group in groups] == [
        BlockState("answered", "sqlite"),
        BlockState("pending"),
    ]
    stored = app.storage.user["chat_ui.history"]
    assert stored[2] == {
        "role": "assistant",
        "content": "Two options work here.",
        "tool_call": CALL,
    }
    assert stored[6] == {"role": "assistant", "content": "Once more:", "tool_call": CALL}
    assert not any("tool_call_id" in message for message in stored)

    await views[0].send("postgres")  # as a click on the open block's PostgreSQL sends it
    await user.should_see("You chose postgres.")
    assert agent.seen[-1][6:] == [
        {"role": "assistant", "content": "Once more:", "tool_call": CALL},
        {"role": "user", "content": "postgres"},
    ]
    await user.open("/")  # a reload shows the same page from the upgraded history
    await user.should_see("You chose postgres.")
    groups = [group for item in views[1].log if hasattr(item, "body") for group in item.body.groups]
    assert [group.state for group in groups] == [
        BlockState("answered", "sqlite"),
        BlockState("answered", "postgres"),
    ]
