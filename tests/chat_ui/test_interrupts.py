"""Interrupts as the conversation decides them: the state of each, what the agent is given, and the
resume a run carries (issue 32). Everything here is derived from the messages alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chat_ui import Interrupt, Message, Resume, conversation
from chat_ui._model._interrupts import (
    InterruptState,
    answers_complete,
    continued_reply,
    expired,
    interrupt_states,
)

OLD: Interrupt = {"id": "int-1", "message": "Delete old?", "reason": "tool_call"}
OLDER: Interrupt = {"id": "int-2", "message": "Delete older?", "reason": "tool_call"}
ASKING: Message = {"role": "assistant", "content": "Cleaning up.", "interrupts": [OLD, OLDER]}
APPROVED: Resume = {"interrupt_id": "int-1", "status": "resolved", "payload": {"approved": True}}
DENIED: Resume = {"interrupt_id": "int-2", "status": "resolved", "payload": {"approved": False}}
REFUSED: Message = {"role": "error", "content": "The agent could not reply: stale resume"}


def answer(entry: Resume) -> Message:
    return {"role": "answer", "content": "words", "resume": entry}


def typed(text: str) -> Message:
    return {"role": "user", "content": text}


def test_answers_answer_their_interrupt_one_by_one_and_the_last_one_completes_them() -> None:
    states, closed = interrupt_states(ASKING, [answer(APPROVED)])
    assert states == {
        "int-1": InterruptState("answered", APPROVED),
        "int-2": InterruptState("pending"),
    }
    assert not closed
    history = [typed("Delete both"), ASKING, answer(APPROVED)]
    assert not answers_complete(history)
    assert answers_complete([*history, answer(DENIED)])


def test_a_typed_message_cancels_what_is_open_and_keeps_what_was_answered() -> None:
    states, closed = interrupt_states(ASKING, [answer(APPROVED), typed("Stop")])
    assert closed
    assert states["int-1"] == InterruptState("answered", APPROVED)
    assert states["int-2"] == InterruptState("cancelled")
    continued = continued_reply([typed("Delete both"), ASKING, answer(APPROVED), typed("Stop")])
    assert continued is not None
    assert continued.resume == [APPROVED, {"interrupt_id": "int-2", "status": "cancelled"}]
    assert continued.typed == typed("Stop")
    assert continued.before == [typed("Delete both")]


@pytest.mark.parametrize(
    "ending",
    [REFUSED, {"role": "assistant", "content": "I was half", "cut_off": True}],
    ids=["an error notice", "a reply cut off"],
)
def test_answers_the_agent_did_not_take_can_be_given_again_and_are_not_sent(
    ending: Message,
) -> None:
    history = [typed("Delete both"), ASKING, answer(APPROVED), answer(DENIED), ending]
    states, closed = interrupt_states(ASKING, history[2:])
    assert not closed
    assert set(states.values()) == {InterruptState("pending")}
    changed_mind: list[Resume] = [
        {"interrupt_id": "int-1", "status": "resolved", "payload": {"approved": False}},
        {"interrupt_id": "int-2", "status": "resolved", "payload": {"approved": True}},
    ]
    again = [*history, *(answer(entry) for entry in changed_mind)]
    given = conversation(again)
    assert [m["role"] for m in given] == ["user", "assistant", "answer", "answer"]
    continued = continued_reply(given)
    assert continued is not None
    assert continued.resume == changed_mind


def test_the_next_reply_closes_them_and_later_runs_start_afresh() -> None:
    history = [typed("Delete both"), ASKING, answer(APPROVED), answer(DENIED)]
    went_on: Message = {"role": "assistant", "content": "Deleted old, kept older."}
    _, closed = interrupt_states(ASKING, [*history[2:], went_on])
    assert closed
    assert continued_reply([*history, went_on, typed("Thanks")]) is None
    assert continued_reply(conversation([*history, went_on, typed("Thanks")])) is None


def test_an_expired_interrupt_is_left_out_of_the_resume_and_of_what_completes_the_answers() -> None:
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    gone: Interrupt = OLDER | {"expires_at": past}
    asking: Message = ASKING | {"interrupts": [OLD, gone]}
    assert expired(gone)
    assert answers_complete([typed("Delete both"), asking, answer(APPROVED)])
    continued = continued_reply([typed("Delete both"), asking, answer(APPROVED)])
    assert continued is not None
    assert continued.resume == [APPROVED]


@pytest.mark.parametrize(
    ("expires_at", "is_expired"),
    [("2001-01-01T00:00:00Z", True), ("2999-01-01T00:00:00+02:00", False), ("tomorrow", False)],
)
def test_expiry_is_read_as_iso_8601_and_anything_else_never_passes(
    expires_at: str, is_expired: bool
) -> None:
    assert expired(OLD | {"expires_at": expires_at}) is is_expired
