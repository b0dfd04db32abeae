"""Block states are derived from the history alone: pending, answered (with the pick) or outdated;
and a message is plain JSON that holds everything about it, the tool call it asked with included."""

import json

from hypothesis import given
from hypothesis import strategies as st

from chat_ui import BlockState, ChoicesAsked, Message, ToolCall, answers, block_state, conversation
from chat_ui._model._conversation import asked_prompt
from chat_ui._model._reply import ReplyDraft
from present_choices import ChoicePrompt, render_fence

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


def test_a_reply_that_asks_with_a_call_keeps_the_call_as_data_beside_its_text() -> None:
    draft = ReplyDraft()
    draft.add("Two options:  \n")
    draft.add(ChoicesAsked(PROMPT, "call_1"))
    message = draft.message()
    assert message == {
        "role": "assistant",
        "content": "Two options:",
        "tool_call": {
            "id": "call_1",
            "name": "present_choices",
            "arguments": {
                "question": "Colour?",
                "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
            },
        },
    }
    assert json.loads(json.dumps(message)) == message  # plain JSON, as a store keeps it
    assert asked_prompt(message) == PROMPT


def test_a_call_without_text_is_still_a_message_and_nothing_at_all_is_none() -> None:
    draft = ReplyDraft()
    draft.add(ChoicesAsked(PROMPT, "call_1"))
    message = draft.message()
    assert message is not None
    assert message["content"] == ""
    assert asked_prompt(message) == PROMPT
    draft = ReplyDraft()
    draft.add("  \n")
    assert draft.message() is None


def test_only_a_kept_present_choices_call_with_a_valid_prompt_asks_a_block() -> None:
    call: ToolCall = {"id": "c", "name": "present_choices", "arguments": {"question": "Q"}}
    assert asked_prompt({"role": "assistant", "content": "", "tool_call": call}) is None
    other: ToolCall = {**call, "name": "search", "arguments": PROMPT.model_dump()}
    assert asked_prompt({"role": "assistant", "content": "", "tool_call": other}) is None
    # A fence the agent wrote in its text belongs to the text: the message asks nothing by a call.
    assert asked_prompt({"role": "assistant", "content": render_fence(PROMPT)}) is None
