"""Block states are derived from the history alone: pending, answered (with the pick) or outdated."""

from hypothesis import given
from hypothesis import strategies as st

from chat_ui import BlockState, Message, answers, block_state, conversation
from chat_ui._history import asked_block, with_block
from present_choices import ChoicePrompt, render_fence, split_message

PROMPT = ChoicePrompt.model_validate(
    {
        "question": "Colour?",
        "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
    }
)


def test_a_block_with_no_answer_is_pending() -> None:
    assert block_state(PROMPT, None) == BlockState("pending")


def test_an_option_value_answers_the_block_and_is_the_pick() -> None:
    assert block_state(PROMPT, "blue") == BlockState("answered", "blue")


def test_any_other_message_makes_the_block_outdated() -> None:
    assert block_state(PROMPT, "green please") == BlockState("outdated")


def test_the_label_is_not_the_value() -> None:
    assert block_state(PROMPT, "Red") == BlockState("outdated")


def test_answers_give_the_first_user_message_after_each_message() -> None:
    history: list[Message] = [
        {"role": "assistant", "content": "q1"},
        {"role": "user", "content": "first"},
        {"role": "user", "content": "second"},
        {"role": "assistant", "content": "q2"},
        {"role": "error", "content": "failed"},
        {"role": "assistant", "content": "q3"},
    ]
    assert answers(history) == ["first", "second", None, None, None, None]


def test_a_later_message_cannot_move_an_earlier_answer() -> None:
    history: list[Message] = [
        {"role": "assistant", "content": "q"},
        {"role": "user", "content": "something else"},
        {"role": "user", "content": "red"},
    ]
    assert block_state(PROMPT, answers(history)[0]) == BlockState("outdated")


def test_agents_do_not_see_error_notices() -> None:
    history: list[Message] = [
        {"role": "user", "content": "hi"},
        {"role": "error", "content": "The agent could not reply"},
        {"role": "user", "content": "hi again"},
    ]
    assert conversation(history) == [history[0], history[2]]


roles = st.sampled_from(["user", "assistant", "error"])
histories = st.lists(
    st.builds(lambda role, content: {"role": role, "content": content}, roles, st.text(max_size=3))
)


@given(histories)
def test_answers_match_a_direct_search(history: list[Message]) -> None:
    expected = [
        next((later["content"] for later in history[i + 1 :] if later["role"] == "user"), None)
        for i in range(len(history))
    ]
    assert answers(history) == expected


def test_an_asked_block_follows_the_text_and_is_read_back() -> None:
    content = with_block("Two options:  \n", PROMPT)
    assert content == f"Two options:\n\n{render_fence(PROMPT)}"
    message: Message = {"role": "assistant", "content": content, "tool_call_id": "call_1"}
    assert asked_block(message) == ("Two options:", PROMPT)
    assert asked_block({"role": "assistant", "content": with_block("", PROMPT)}) is None
    assert asked_block({**message, "content": "edited since"}) is None


def test_a_code_fence_the_text_left_open_is_closed_before_the_block() -> None:
    for text, closing in [
        ("```python\nprint(1)", "```"),
        ("~~~~\nx", "~~~~"),
        ("````\n```", "````"),
    ]:
        content = with_block(text, PROMPT)
        assert content.startswith(f"{text}\n{closing}\n\n")
        assert [segment.kind for segment in split_message(content)] == ["markdown", "choices"]
    closed = "```python\nprint(1)\n```"
    assert with_block(closed, PROMPT) == f"{closed}\n\n{render_fence(PROMPT)}"
