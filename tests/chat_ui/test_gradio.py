"""`chat_ui.gradio` without a browser: a conversation as `gr.Chatbot` messages (a pending block's
options on the last one only, marks for the others, the person's words literal), a page's chat as
its session drives it, and the ready chat `chat_interface` builds.

Gradio loads when the first test here runs, not when the tests are collected: every test process
collects every file, and Gradio takes seconds to import."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType

import pytest

from chat_ui._agents import DemoAgent
from chat_ui._model import Message
from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.skipif(
    find_spec("gradio") is None, reason="needs the gradio extra: pip install -e '.[gradio]'"
)


@pytest.fixture(scope="module")
def gradio_chat() -> ModuleType:
    """`chat_ui.gradio`, loaded (with Gradio) by the first test that needs it."""
    return importlib.import_module("chat_ui.gradio")


PROMPT = ChoicePrompt.model_validate(
    {
        "question": "What tonight?",
        "context": "Quick ones.",
        "options": [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}],
    }
)
ASKING: Message = {"role": "assistant", "content": f"Dinner.\n\n{render_fence(PROMPT)}"}
OPTIONS = [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}]


def test_the_public_names(gradio_chat: ModuleType) -> None:
    assert sorted(gradio_chat.__all__) == ["ChatPage", "add_chat", "chat_interface", "to_messages"]


def test_a_pending_block_s_options_go_on_the_last_message(gradio_chat: ModuleType) -> None:
    (message,) = gradio_chat.to_messages([ASKING])
    assert message == {
        "role": "assistant",
        "content": "Dinner.\n\n**What tonight?**\n\nQuick ones.",
        "options": OPTIONS,
    }


def test_an_answered_block_shows_its_mark_and_no_options(gradio_chat: ModuleType) -> None:
    history: list[Message] = [ASKING, {"role": "user", "content": "curry"}]
    asked, said = gradio_chat.to_messages(history)
    assert asked == {
        "role": "assistant",
        "content": "Dinner.\n\n**What tonight?**\n\nQuick ones.\n\n✓ Curry",
    }
    assert said == {"role": "user", "content": "curry"}


def test_an_outdated_block_says_it_was_answered_by_typing(gradio_chat: ModuleType) -> None:
    asked, said, again = gradio_chat.to_messages(
        [ASKING, {"role": "user", "content": "<b>pizza</b> *now*"}, ASKING]
    )
    assert asked["content"].endswith("Answered by typing")
    assert "options" not in asked
    assert said["content"] == r"\<b\>pizza\</b\> \*now\*", "the person's words, literal"
    assert again["options"] == OPTIONS


def test_a_notice_is_marked_as_the_app_s(gradio_chat: ModuleType) -> None:
    history: list[Message] = [
        {"role": "user", "content": "hi"},
        {"role": "error", "content": "The agent could not reply."},
    ]
    assert gradio_chat.to_messages(history)[-1] == {
        "role": "assistant",
        "content": "⚠ The agent could not reply.",
    }


async def test_a_page_follows_its_session_and_offers_no_option_while_streaming(
    gradio_chat: ModuleType,
) -> None:
    page = gradio_chat.ChatPage(DemoAgent(chunk_delay=0.01))
    page.session.start()
    seen = [(page.chat.draft is not None, page.messages()) async for _ in page.chat.follow()]
    while_streaming = [messages for streaming, messages in seen if streaming]
    assert while_streaming, "the greeting was shown as it streamed"
    assert all("options" not in message for messages in while_streaming for message in messages)
    _, messages = seen[-1]
    assert not page.chat.busy
    assert [option["label"] for option in messages[-1]["options"]] == [
        "A weekend trip",
        "Tonight's dinner",
        "A side project",
    ]
    page.session.say("Let's plan a side project")
    async for _ in page.chat.follow():
        pass
    messages = page.messages()
    assert messages[0]["content"].endswith("✓ A side project")
    assert messages[1] == {"role": "user", "content": "Let's plan a side project"}
    assert [option["label"] for option in messages[-1]["options"]] == [
        "Command-line tool",
        "Web app",
        "Game",
    ]


def test_chat_interface_is_a_ready_blocks_with_a_chatbot_and_a_message_box(
    gradio_chat: ModuleType,
) -> None:
    demo = gradio_chat.chat_interface(DemoAgent())
    assert isinstance(demo, importlib.import_module("gradio").Blocks)
    kinds = {type(block).__name__ for block in demo.blocks.values()}
    assert {"Chatbot", "Textbox", "State"} <= kinds


def test_the_example_stops_on_a_bad_variable_with_one_line() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "gradio_chat.py"
    environment = os.environ | {"CHOICES_CHAT_AGENT": "script", "GRADIO_ANALYTICS_ENABLED": "False"}
    environment.pop("CHOICES_CHAT_SCRIPT", None)
    ended = subprocess.run(
        [sys.executable, str(example), "--port", "0"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert ended.returncode == 2
    assert ended.stderr.startswith(
        "gradio_chat: CHOICES_CHAT_AGENT=script needs CHOICES_CHAT_SCRIPT"
    )
    assert ended.stderr.count("\n") == 1, "one line, no traceback"
