"""`chat_ui.gradio` without a browser: the conversation as `gr.Chatbot` messages (a pending block's
options on the last one only, marks for the others, the person's words literal), the reply streamed
by `respond`, and the ready chat `chat_interface` builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

gr = pytest.importorskip("gradio", reason="needs the gradio extra: pip install -e '.[gradio]'")

from chat_ui._agents import DemoAgent  # noqa: E402
from chat_ui._conversation import Message  # noqa: E402
from chat_ui._reply import ReplyDraft  # noqa: E402
from chat_ui.gradio import __all__ as public  # noqa: E402
from chat_ui.gradio import chat_interface, respond, to_messages  # noqa: E402
from present_choices import ChoicePrompt, render_fence  # noqa: E402

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "What tonight?",
        "context": "Quick ones.",
        "options": [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}],
    }
)
ASKING: Message = {"role": "assistant", "content": f"Dinner.\n\n{render_fence(PROMPT)}"}
OPTIONS = [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}]


def test_the_public_names() -> None:
    assert sorted(public) == ["add_chat", "chat_interface", "respond", "to_messages"]


def test_a_pending_block_s_options_go_on_the_last_message() -> None:
    (message,) = to_messages([ASKING])
    assert message == {
        "role": "assistant",
        "content": "Dinner.\n\n**What tonight?**\n\nQuick ones.",
        "options": OPTIONS,
    }


def test_an_answered_block_shows_its_mark_and_no_options() -> None:
    history: list[Message] = [ASKING, {"role": "user", "content": "curry"}]
    asked, said = to_messages(history)
    assert asked == {
        "role": "assistant",
        "content": "Dinner.\n\n**What tonight?**\n\nQuick ones.\n\n✓ Curry",
    }
    assert said == {"role": "user", "content": "curry"}


def test_an_outdated_block_says_it_was_answered_by_typing() -> None:
    asked, said, again = to_messages(
        [ASKING, {"role": "user", "content": "<b>pizza</b> *now*"}, ASKING]
    )
    assert asked["content"].endswith("Answered by typing")
    assert "options" not in asked
    assert said["content"] == r"\<b\>pizza\</b\> \*now\*", "the person's words, literal"
    assert again["options"] == OPTIONS


def test_a_notice_is_marked_as_the_app_s() -> None:
    history: list[Message] = [
        {"role": "user", "content": "hi"},
        {"role": "error", "content": "The agent could not reply."},
    ]
    assert to_messages(history)[-1] == {
        "role": "assistant",
        "content": "⚠ The agent could not reply.",
    }


def test_a_streaming_reply_offers_no_option() -> None:
    draft = ReplyDraft()
    draft.add(ASKING["content"])
    (streaming,) = to_messages([], draft=draft)
    assert "options" not in streaming
    assert "**What tonight?**" in streaming["content"]


async def test_respond_takes_the_message_and_streams_the_reply() -> None:
    updates: list[tuple[list[dict[str, Any]], list[Message], dict[str, Any]]] = [
        update async for update in respond(DemoAgent(chunk_delay=0), [], " Hello ")
    ]
    _, first_history, box = updates[0]
    assert first_history == [{"role": "user", "content": "Hello"}]
    assert box["interactive"] is False
    assert box["value"] == ""
    messages, history, box = updates[-1]
    assert [message["role"] for message in history] == ["user", "assistant"]
    assert box["interactive"] is True
    assert [option["label"] for option in messages[-1]["options"]] == [
        "A weekend trip",
        "Tonight's dinner",
        "A side project",
    ]


async def test_blank_text_changes_nothing() -> None:
    updates = [update async for update in respond(DemoAgent(chunk_delay=0), [ASKING], "  ")]
    assert [history for _, history, _ in updates] == [[ASKING]]


def test_chat_interface_is_a_ready_blocks_with_a_chatbot_and_a_message_box() -> None:
    demo = chat_interface(DemoAgent())
    assert isinstance(demo, gr.Blocks)
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
