"""What the chat makes of an AG-UI agent's events, fed as the JSON payloads a server sends."""

from __future__ import annotations

import json
from typing import Any

import pytest
from extras import NEEDS_AG_UI_EXTRA
from prompts import DATABASE

pytest.importorskip("ag_ui", reason=NEEDS_AG_UI_EXTRA)

from chat_ui import ChoicesAsked, ChoicesPreparing, Interrupted, Notice, ReplyChunk
from chat_ui._agents.agui._events import MalformedEvent, RunReader, parse_event
from present_choices import ChoicePrompt

STARTED = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
FINISHED = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}


def text(message_id: str, *deltas: str, role: str = "assistant") -> list[dict[str, Any]]:
    start = {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": role}
    content = [
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": delta}
        for delta in deltas
    ]
    return [start, *content, {"type": "TEXT_MESSAGE_END", "messageId": message_id}]


def call(name: str, arguments: Any, call_id: str = "call_1") -> list[dict[str, Any]]:
    encoded = arguments if isinstance(arguments, str) else json.dumps(arguments)
    half = len(encoded) // 2
    return [
        {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name},
        {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": encoded[:half]},
        {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": encoded[half:]},
        {"type": "TOOL_CALL_END", "toolCallId": call_id},
    ]


def read(*payloads: dict[str, Any]) -> tuple[list[ReplyChunk], RunReader]:
    reader = RunReader()
    chunks: list[ReplyChunk] = []
    for payload in payloads:
        event = parse_event(json.dumps(payload))
        if event is not None:
            chunks += reader.read(event)
    return chunks, reader


def test_text_streams_and_a_second_message_is_a_paragraph_of_its_own() -> None:
    chunks, reader = read(STARTED, *text("m1", "Hello ", "there."), *text("m2", "Next."), FINISHED)
    assert chunks == ["Hello ", "there.", "\n\nNext."]
    assert reader.ended


def test_a_present_choices_call_shows_the_placeholder_then_the_block_once_the_run_is_over() -> None:
    asking = [STARTED, *text("m1", "Pick one."), *call("present_choices", DATABASE)]
    chunks, _ = read(*asking)
    assert chunks == ["Pick one.", ChoicesPreparing()], "no block before the run is over"
    chunks, _ = read(*asking, FINISHED)
    assert chunks == [
        "Pick one.",
        ChoicesPreparing(),
        ChoicesAsked(ChoicePrompt.model_validate(DATABASE), "call_1"),
    ]


def test_a_run_that_fails_after_its_call_shows_no_block() -> None:
    error = {"type": "RUN_ERROR", "message": "Lost the model"}
    chunks, _ = read(STARTED, *call("present_choices", DATABASE), error)
    assert chunks == [ChoicesPreparing(), Notice("The agent could not reply: Lost the model")]


def test_calls_of_tools_the_chat_does_not_know_are_skipped_and_the_reply_goes_on() -> None:
    weather = call("get_weather", {"city": "Oslo"}, "call_w")
    result = {
        "type": "TOOL_CALL_RESULT",
        "messageId": "m9",
        "toolCallId": "call_w",
        "content": "sunny",
    }
    chunks, reader = read(STARTED, *weather, result, *text("m1", "It is sunny."), FINISHED)
    assert chunks == ["It is sunny."]
    assert reader.ended


def test_state_steps_reasoning_custom_and_other_roles_are_skipped() -> None:
    skipped = [
        {"type": "STATE_SNAPSHOT", "snapshot": {"count": 1}},
        {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/count", "value": 2}]},
        {"type": "STEP_STARTED", "stepName": "plan"},
        {"type": "STEP_FINISHED", "stepName": "plan"},
        {"type": "REASONING_START", "messageId": "r1"},
        {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "hmm"},
        {"type": "REASONING_MESSAGE_END", "messageId": "r1"},
        {"type": "REASONING_END", "messageId": "r1"},
        {"type": "CUSTOM", "name": "progress", "value": 0.5},
        {"type": "RAW", "event": {"anything": True}},
        *text("s1", "You are a bot.", role="system"),
        {"type": "THINKING_START"},  # a type the protocol no longer defines
    ]
    chunks, _ = read(STARTED, *skipped, *text("m1", "Answer."), FINISHED)
    assert chunks == ["Answer."]


def test_the_short_forms_text_and_call_chunks_are_shown_too() -> None:
    arguments = json.dumps(DATABASE)
    chunks, _ = read(
        STARTED,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Pick."},
        {
            "type": "TOOL_CALL_CHUNK",
            "toolCallId": "call_5",
            "toolCallName": "present_choices",
            "delta": arguments[:10],
        },
        {"type": "TOOL_CALL_CHUNK", "delta": arguments[10:]},
        FINISHED,  # a call in chunks has no end of its own: the run's end completes it
    )
    assert chunks == [
        "Pick.",
        ChoicesPreparing(),
        ChoicesAsked(ChoicePrompt.model_validate(DATABASE), "call_5"),
    ]


def test_an_invalid_call_gives_a_note_saying_what_is_wrong() -> None:
    five = {**DATABASE, "options": [{"label": c, "value": c} for c in "abcde"]}
    chunks, _ = read(STARTED, *call("present_choices", five), FINISHED)
    assert chunks[-1] == Notice(
        "The assistant's choices could not be shown: options must have 2 to 4 items, got 5. "
        "Answer in your own words, or ask it to try again."
    )
    chunks, _ = read(STARTED, *call("present_choices", '{"question": "Cut'), FINISHED)
    assert isinstance(chunks[-1], Notice)
    assert "its arguments are not a JSON object" in chunks[-1].text


def test_only_the_first_call_of_a_run_becomes_the_block() -> None:
    second = {**DATABASE, "question": "Another?"}
    calls = [*call("present_choices", DATABASE), *call("present_choices", second, "c2")]
    chunks, _ = read(*calls, FINISHED)
    assert chunks == [
        ChoicesPreparing(),
        ChoicesAsked(ChoicePrompt.model_validate(DATABASE), "call_1"),
    ]


def test_a_run_error_is_a_notice_and_ends_the_run() -> None:
    error = {"type": "RUN_ERROR", "message": "The model is overloaded", "code": "overloaded"}
    chunks, reader = read(STARTED, *text("m1", "Let me"), error)
    assert chunks == [
        "Let me",
        Notice("The agent could not reply: The model is overloaded (overloaded)"),
    ]
    assert reader.ended


def test_interrupts_end_the_reply_kept_with_the_calls_they_name() -> None:
    schema = {"type": "object", "properties": {"approved": {"type": "boolean"}}}
    deleting = {
        "id": "int-call_1",
        "reason": "tool_call",
        "message": 'Approve delete_branch({"name":"old"})?',
        "toolCallId": "call_1",
        "responseSchema": schema,
        "expiresAt": "2030-01-01T00:00:00Z",
    }
    confirming = {"id": "i2", "reason": "confirmation"}  # no message: its reason stands in
    outcome = {"type": "interrupt", "interrupts": [deleting, confirming]}
    chunks, _ = read(
        STARTED,
        *text("m1", "Cleaning up."),
        *call("delete_branch", {"name": "old"}),
        *call("list_branches", {}, call_id="call_2"),  # a call no interrupt names
        {**FINISHED, "outcome": outcome},
    )
    assert chunks == [
        "Cleaning up.",
        Interrupted(
            [
                {
                    "id": "int-call_1",
                    "message": 'Approve delete_branch({"name":"old"})?',
                    "reason": "tool_call",
                    "tool_call": {
                        "id": "call_1",
                        "name": "delete_branch",
                        "arguments": {"name": "old"},
                    },
                    "response_schema": schema,
                    "expires_at": "2030-01-01T00:00:00Z",
                },
                {"id": "i2", "message": "confirmation", "reason": "confirmation"},
            ]
        ),
    ]


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("{not json", 'data that is not JSON: "{not json"'),
        ('["TEXT_MESSAGE_CONTENT"]', "data without an event type"),
        ('{"delta": "hi"}', "data without an event type"),
        (
            '{"type": "TEXT_MESSAGE_CONTENT", "delta": "hi"}',
            "a TEXT_MESSAGE_CONTENT event that is not valid (messageId: Field required)",
        ),
        (
            '{"type": "RUN_ERROR", "message": 42}',
            "a RUN_ERROR event that is not valid (message: Input should be a valid string)",
        ),
    ],
)
def test_a_malformed_payload_says_what_is_wrong(data: str, said: str) -> None:
    with pytest.raises(MalformedEvent) as caught:
        parse_event(data)
    assert str(caught.value).startswith(said)


def test_a_long_malformed_payload_is_quoted_short() -> None:
    with pytest.raises(MalformedEvent) as caught:
        parse_event("x" * 1000)
    assert len(str(caught.value)) < 120
