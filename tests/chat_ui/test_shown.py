"""What a message shows in Gradio and Streamlit, decided by `chat_ui`'s rules: a pending block's
options, an answered one's `✓ <label>`, an outdated one's "Answered by typing", a malformed one as
its code, a streaming one without buttons."""

from __future__ import annotations

from chat_ui._conversation import Message
from chat_ui._shown import Block, Markdown, Text, content_parts, offered, reply_parts, shown_history
from present_choices import ChoicePrompt, render_fence

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "What tonight?",
        "context": "Quick ones.",
        "options": [{"label": "Pasta", "value": "pasta"}, {"label": "Curry", "value": "curry"}],
    }
)
ASKING: Message = {"role": "assistant", "content": f"Dinner.\n\n{render_fence(PROMPT)}"}


def blocks(message: Message, answer: str | None) -> list[Block]:
    return [part for part in reply_parts(message, answer) if isinstance(part, Block)]


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
    parts = reply_parts(message, None)
    assert parts[0] == Markdown("Dinner.")
    assert isinstance(parts[1], Block)
    assert parts[1].options == list(PROMPT.options)


def test_a_malformed_block_is_its_code_never_buttons() -> None:
    broken = '```choices\n{"question": "Half", "options": [{"label": "One"}]}\n```'
    parts = content_parts(f"Hi.\n\n{broken}", None, None, streaming=False, preparing=False)
    assert parts == [Markdown("Hi.\n"), Markdown(broken)]


def test_a_streaming_reply_shows_no_button_and_a_fence_being_written_a_placeholder() -> None:
    (block,) = [
        part
        for part in content_parts(ASKING["content"], None, None, streaming=True, preparing=False)
        if isinstance(part, Block)
    ]
    assert (block.question, block.options, block.mark) == ("What tonight?", [], None)
    half = 'Dinner.\n\n```choices\n{"question": "What to'
    parts = content_parts(half, None, None, streaming=True, preparing=False)
    assert parts[-1] == Text("preparing choices...", quiet=True)
    assert not any("What to" in str(part) for part in parts)


def test_the_history_shows_who_says_what() -> None:
    history: list[Message] = [
        ASKING,
        {"role": "user", "content": "pasta"},
        {"role": "error", "content": "The agent could not reply."},
        {"role": "assistant", "content": ""},  # a reply that went on without a word
    ]
    shown = shown_history(history)
    assert [(index, message.role) for index, message in shown] == [
        (0, "assistant"),
        (1, "user"),
        (2, "notice"),
    ]
    assert shown[1][1].parts == [Text("pasta")]


def test_a_click_counts_only_on_a_block_still_waiting() -> None:
    waiting: list[Message] = [ASKING]
    assert offered(waiting, "pasta")
    assert not offered(waiting, "tea")
    answered = [*waiting, {"role": "user", "content": "pasta"}]
    assert not offered(answered, "curry"), "a second click, or a click on an answered block"
