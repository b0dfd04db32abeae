"""What the chat posts to an AG-UI agent: the conversation as AG-UI messages (checked on the wire, as
JSON), and `present_choices` declared as a frontend tool."""

from __future__ import annotations

import json
from typing import Any

import pytest
from extras import NEEDS_AG_UI_EXTRA
from prompts import DATABASE

pytest.importorskip("ag_ui", reason=NEEDS_AG_UI_EXTRA)

from chat_ui import Message
from chat_ui._agents.agui._messages import NOT_ANSWERED, agui_messages, run_input
from chat_ui._model._reply import TOOL_CALL_DESCRIPTION
from present_choices import ChoicePrompt, parameters_schema, render_fence

GREETING: Message = {"role": "assistant", "content": "Hello!", "thread_id": "thread-1"}


def asked(text: str, call_id: str = "call_1") -> Message:
    call = {"id": call_id, "name": "present_choices", "arguments": DATABASE}
    return {"role": "assistant", "content": text, "tool_call": call}  # type: ignore[typeddict-item]


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def on_the_wire(history: list[Message]) -> list[dict[str, Any]]:
    body = run_input(history, "thread-1", "run-1").model_dump_json(by_alias=True)
    messages: list[dict[str, Any]] = json.loads(body)["messages"]
    return messages


def test_a_call_goes_back_with_its_result_then_the_pick() -> None:
    history = [GREETING, user("Set up a service"), asked("Two fit."), user("postgres")]
    assert on_the_wire(history) == [
        {"id": "user-1", "role": "user", "content": "Set up a service"},
        {
            "id": "assistant-2",
            "role": "assistant",
            "content": "Two fit.",
            "toolCalls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "present_choices", "arguments": json.dumps(DATABASE)},
                }
            ],
        },
        {"id": "tool-3", "role": "tool", "toolCallId": "call_1", "content": "postgres"},
        {"id": "user-3", "role": "user", "content": "postgres"},
    ]


def test_words_typed_instead_of_a_pick_are_the_result_and_the_next_message() -> None:
    history = [user("hi"), asked(""), user("Neither, use Redis")]
    call, result, said = on_the_wire(history)[1:]
    assert "content" not in call  # a call without text has no content
    assert result == {
        "id": "tool-2",
        "role": "tool",
        "toolCallId": "call_1",
        "content": "Neither, use Redis",
    }
    assert said == {"id": "user-2", "role": "user", "content": "Neither, use Redis"}


def test_the_greeting_is_the_app_s_and_a_fence_in_text_stays_text() -> None:
    fence = render_fence(ChoicePrompt.model_validate(DATABASE))
    history = [GREETING, user("hi"), {"role": "assistant", "content": f"Pick:\n\n{fence}"}]
    history.append(user("sqlite"))
    assert on_the_wire(history) == [
        {"id": "user-1", "role": "user", "content": "hi"},
        {"id": "assistant-2", "role": "assistant", "content": f"Pick:\n\n{fence}"},
        {"id": "user-3", "role": "user", "content": "sqlite"},
    ]


def test_a_call_passed_by_without_an_answer_still_gets_its_result() -> None:
    history = [user("hi"), asked("Pick.", "call_1"), {"role": "assistant", "content": "Well?"}]
    roles = [
        (message.role, getattr(message, "content", None)) for message in agui_messages(history)
    ]
    assert roles == [
        ("user", "hi"),
        ("assistant", "Pick."),
        ("tool", NOT_ANSWERED),
        ("assistant", "Well?"),
    ]


def test_message_ids_stay_the_same_from_run_to_run() -> None:
    first = [user("hi"), asked("Pick.")]
    later = [*first, user("postgres"), {"role": "assistant", "content": "Done."}, user("thanks")]
    ids_then = [message.id for message in agui_messages(first)]
    ids_now = [message.id for message in agui_messages(later)]
    assert ids_now[: len(ids_then)] == ids_then
    assert len(set(ids_now)) == len(ids_now)


def test_present_choices_is_declared_as_a_frontend_tool_with_the_choice_prompt_schema() -> None:
    body = json.loads(run_input([user("hi")], "thread-9", "run-3").model_dump_json(by_alias=True))
    assert body["threadId"] == "thread-9"
    assert body["runId"] == "run-3"
    assert body["tools"] == [
        {
            "name": "present_choices",
            "description": TOOL_CALL_DESCRIPTION,
            "parameters": parameters_schema(),
        }
    ]
    assert (body["context"], body["state"], body["forwardedProps"]) == ([], {}, {})


DELETE_OLD = {"id": "call_old", "name": "delete_branch", "arguments": {"name": "old"}}
INTERRUPTED: Message = {
    "role": "assistant",
    "content": "Cleaning up.",
    "interrupts": [
        {
            "id": "int-call_old",
            "message": "Delete old?",
            "reason": "tool_call",
            "tool_call": DELETE_OLD,
        }  # type: ignore[typeddict-item]
    ],
}
APPROVED: Message = {
    "role": "answer",
    "content": "Approve",
    "resume": {"interrupt_id": "int-call_old", "status": "resolved", "payload": {"approved": True}},
}


def test_a_resume_resends_the_reply_with_the_calls_its_interrupts_name() -> None:
    body = json.loads(
        run_input(
            [GREETING, user("Clean up"), INTERRUPTED, APPROVED], "thread-1", "run-2"
        ).model_dump_json(by_alias=True)
    )
    assert body["resume"] == [
        {"interruptId": "int-call_old", "status": "resolved", "payload": {"approved": True}}
    ]
    assert body["messages"][-1] == {
        "id": "assistant-2",
        "role": "assistant",
        "content": "Cleaning up.",
        "toolCalls": [
            {
                "id": "call_old",
                "type": "function",
                "function": {"name": "delete_branch", "arguments": '{"name": "old"}'},
            }
        ],
    }


def test_once_continued_an_interrupted_reply_goes_back_as_its_text() -> None:
    went_on: Message = {"role": "assistant", "content": "Deleted."}
    history = [GREETING, user("Clean up"), INTERRUPTED, APPROVED, went_on, user("Thanks")]
    body = json.loads(run_input(history, "thread-1", "run-3").model_dump_json(by_alias=True))
    assert "resume" not in body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "assistant", "user"]
    assert body["messages"][1] == {
        "id": "assistant-2",
        "role": "assistant",
        "content": "Cleaning up.",
    }
