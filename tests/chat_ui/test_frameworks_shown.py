"""What a message shows in Gradio and Streamlit, decided by `chat_ui`'s rules: a pending block's
options, an answered one's `✓ <label>`, an outdated one's "Answered by typing", a malformed one as
its code, a streaming one without buttons; and the session's front end that records it."""

from __future__ import annotations

from waiting import until

from chat_ui._agents import ScriptAgent
from chat_ui._frameworks import Block, Markdown, RecordedChat, Text, shown_message
from chat_ui._frameworks._shown import content_parts
from chat_ui._model import Message
from chat_ui._session import ChatSession
from present_choices import ChoicePrompt, render_fence
from present_choices._translation import ENGLISH

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "What tonight?",
        "context": "Quick ones.",
        "options": [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}],
    }
)
ASKING: Message = {"role": "assistant", "content": f"Dinner.\n\n{render_fence(PROMPT)}"}


def blocks(message: Message, answer: str | None) -> list[Block]:
    shown = shown_message(message, answer, ENGLISH)
    assert shown is not None
    return [part for part in shown.parts if isinstance(part, Block)]


def test_a_pending_block_offers_its_options_in_order() -> None:
    (block,) = blocks(ASKING, None)
    assert (block.question, block.context, block.mark) == ("What tonight?", "Quick ones.", None)
    assert [option.label for option in block.options] == ["Pasta", "Curry"]


def test_an_answered_block_shows_the_chosen_label_and_offers_nothing() -> None:
    (block,) = blocks(ASKING, "curry")
    assert (block.options, block.mark) == ([], "✓ Curry")


def test_a_block_passed_by_a_typed_message_is_answered_by_typing() -> None:
    (block,) = blocks(ASKING, "something else")
    assert (block.options, block.mark) == ([], "Answered by typing")


def test_a_block_asked_with_a_tool_call_shows_after_the_text() -> None:
    call = {"id": "call_1", "name": "present_choices", "arguments": PROMPT.model_dump()}
    message: Message = {"role": "assistant", "content": "Dinner.", "tool_call": call}  # type: ignore[typeddict-item]
    shown = shown_message(message, None, ENGLISH)
    assert shown is not None
    assert shown.parts[0] == Markdown("Dinner.")
    assert shown.options == list(PROMPT.options)


def test_a_malformed_block_is_its_code_never_buttons() -> None:
    broken = '```choices\n{"question": "Half", "options": [{"label": "One"}]}\n```'
    parts = content_parts(f"Hi.\n\n{broken}", None, None, ENGLISH, streaming=False)
    assert parts == [Markdown("Hi.\n"), Markdown(broken)]


def test_a_streaming_reply_shows_no_button_and_a_fence_being_written_a_placeholder() -> None:
    parts = content_parts(ASKING["content"], None, None, ENGLISH, streaming=True)
    (block,) = [part for part in parts if isinstance(part, Block)]
    assert (block.question, block.options, block.mark) == ("What tonight?", [], None)
    half = 'Dinner.\n\n```choices\n{"question": "What to'
    parts = content_parts(half, None, None, ENGLISH, streaming=True)
    assert parts[-1] == Text("preparing choices...", quiet=True)
    assert not any("What to" in str(part) for part in parts)


def test_who_says_what() -> None:
    assert shown_message({"role": "user", "content": "*hi*"}, None, ENGLISH).parts == [  # type: ignore[union-attr]
        Text("*hi*")
    ]
    notice = shown_message({"role": "error", "content": "failed"}, None, ENGLISH)
    assert notice is not None
    assert notice.role == "notice"
    assert shown_message({"role": "assistant", "content": ""}, None, ENGLISH) is None


async def test_the_recorded_chat_follows_the_session_and_offers_only_a_waiting_block() -> None:
    chat = RecordedChat(ENGLISH)
    agent = ScriptAgent([ASKING["content"], "Got {{user}}.", "Bye."])
    session = ChatSession(agent, chat, translation=ENGLISH)
    session.start()
    follows = [chat.draft async for _ in chat.follow()]
    assert len(follows) >= 2, "followed while the greeting streamed, then once done"
    assert not chat.busy
    assert [shown.role for shown in chat.shown()] == ["assistant"]
    assert chat.offered("pasta")
    assert not chat.offered("tea")
    session.pick("pasta")
    await until(lambda: not session.busy, "the reply is done")
    assert [shown.role for shown in chat.shown()] == ["assistant", "user", "assistant"]
    (block,) = [part for part in chat.shown()[0].parts if isinstance(part, Block)]
    assert block.mark == "✓ Pasta"
    assert not chat.offered("curry"), "a second click, or a click on an answered block"


async def test_regression_a_reply_that_ends_while_the_follower_draws_is_drawn_ended() -> None:
    # Gradio's greeting never re-opened its message box: the reply ended while Gradio sent the
    # frame before, and the follower stopped without a frame of the chat no longer busy.
    chat = RecordedChat(ENGLISH)
    chat.set_busy(True)
    frames = chat.follow()
    await anext(frames)
    chat.set_busy(False)  # while the follower is at its yield
    await anext(frames)
    assert not chat.busy
    try:
        await anext(frames)
    except StopAsyncIteration:
        pass
    else:
        raise AssertionError("nothing changed since: the follower ends")
