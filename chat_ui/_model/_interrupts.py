"""Interrupts: what state each one is in, derived from the conversation, and what goes back to the agent.

A reply that ends waiting for answers keeps its interrupts (`Message.interrupts`); each answer is a
message of its own (role `answer`, holding its `Resume` entry). Nothing else is stored: whether an
interrupt is pending, answered or cancelled follows from the messages after its reply, so a reload,
a restart and another instance on the same store all show the same thing.

- An answer answers its interrupt; the latest answer to an interrupt counts.
- An error notice, or a reply cut off, after answers means that the agent did not go on from them
  (it refused them, or the app stopped): they no longer count, and the interrupts can be answered
  again (`conversation` leaves them out of what the agent is given, likewise). A reply still
  streaming, here or on another instance, is going on from them.
- A message the person typed closes the interrupts: those still open are cancelled, in the resume
  that carries the message. So does the agent's next reply: the answers were taken.
- An interrupt whose `expires_at` has passed can no longer be answered; it is left out of the resume
  (the agent would refuse a resume past it).

Once every interrupt still answerable is answered, the chat continues the reply at once, one run
for all of them, with one resume entry per interrupt (`continued_reply`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from chat_ui._model._conversation import Interrupt, Message, Resume, ToolCall, refused_answers

InterruptStatus = Literal["pending", "answered", "cancelled"]

APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"approved": {"type": "boolean"}, "reason": {"type": "string"}},
    "required": ["approved"],
}
"""The answer to an approval, as pydantic-ai's AG-UI adapter asks for it (without `editedArgs`)."""


@dataclass(frozen=True)
class InterruptState:
    """What an interrupt's group shows: `answer` is the person's, once `status` is answered."""

    status: InterruptStatus
    answer: Resume | None = None


PENDING = InterruptState("pending")


def approval(call: ToolCall) -> Interrupt:
    """The interrupt of a tool call that needs the person's approval, worded as pydantic-ai's AG-UI
    adapter words it, so that an agent in this process and one over AG-UI look the same."""
    arguments = json.dumps(call["arguments"], ensure_ascii=False, separators=(",", ":"))
    return {
        "id": call["id"],
        "message": f"Approve {call['name']}({arguments})?",
        "reason": "tool_call",
        "tool_call": call,
        "response_schema": APPROVAL_SCHEMA,
    }


def expired(interrupt: Interrupt, now: datetime | None = None) -> bool:
    """Whether `interrupt` can no longer be answered. An `expires_at` that is not an ISO 8601 time
    never passes (the protocol leaves its form open)."""
    deadline = expiry(interrupt)
    return deadline is not None and deadline <= (now or datetime.now(UTC))


def expiry(interrupt: Interrupt) -> datetime | None:
    """When `interrupt` stops being answerable; None when never (or not said in a form we read)."""
    text = interrupt.get("expires_at")
    if text is None:
        return None
    try:
        deadline = datetime.fromisoformat(text)
    except ValueError:
        return None
    return deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)


def interrupt_states(
    reply: Message, following: Sequence[Message]
) -> tuple[dict[str, InterruptState], bool]:
    """The state of each interrupt of `reply`, given the messages that followed it, and whether
    they are closed (a later message decided them for good)."""
    answered: dict[str, Resume] = {}
    ids = {interrupt["id"] for interrupt in reply.get("interrupts", [])}
    closed = False
    for message in following:
        if refused_answers(message):
            answered.clear()
        elif message["role"] == "answer":
            entry = message.get("resume")
            if entry is not None and entry["interrupt_id"] in ids:
                answered[entry["interrupt_id"]] = entry
        else:
            closed = True
            break
    left = InterruptState("cancelled") if closed else PENDING
    states = {
        interrupt_id: InterruptState("answered", answered[interrupt_id])
        if interrupt_id in answered
        else left
        for interrupt_id in ids
    }
    return states, closed


def all_answered(reply: Message, following: Sequence[Message]) -> bool:
    """Whether the person has answered every interrupt of `reply` still answerable (at least one):
    the moment the chat continues the reply."""
    states, closed = interrupt_states(reply, following)
    if closed:
        return False
    interrupts = reply.get("interrupts", [])
    open_ones = [i for i in interrupts if states[i["id"]].status == "pending" and not expired(i)]
    return not open_ones and any(state.status == "answered" for state in states.values())


def answers_complete(history: Sequence[Message]) -> bool:
    """Whether `history` ends with the answer that leaves no interrupt of the last reply open: the
    moment the agent goes on (they go back together)."""
    replies = [index for index, message in enumerate(history) if message["role"] == "assistant"]
    if not replies or history[-1]["role"] != "answer":
        return False
    return all_answered(history[replies[-1]], history[replies[-1] + 1 :])


@dataclass(frozen=True)
class ContinuedReply:
    """A run that continues an interrupted reply: the conversation up to that reply (`before`), the
    reply itself, one resume entry per interrupt still answerable, and the message the person typed
    instead of answering some (None when they answered them all)."""

    before: list[Message]
    reply: Message
    resume: list[Resume]
    typed: Message | None


def continued_reply(conversation: Sequence[Message]) -> ContinuedReply | None:
    """What a run given `conversation` (see `conversation`) continues: its last reply, when that
    ended with interrupts and nothing but answers and at most one typed message follow it; None
    for a run that starts afresh."""
    last = max(
        (index for index, message in enumerate(conversation) if message["role"] == "assistant"),
        default=None,
    )
    if last is None or not conversation[last].get("interrupts"):
        return None
    following = list(conversation[last + 1 :])
    typed = following.pop() if following and following[-1]["role"] == "user" else None
    if not following and typed is None:
        return None  # nothing answered or said yet: the greeting of a fresh reload, say
    if any(message["role"] != "answer" for message in following):
        return None
    answers = {
        entry["interrupt_id"]: entry
        for message in following
        if (entry := message.get("resume")) is not None
    }
    resume: list[Resume] = []
    for interrupt in conversation[last]["interrupts"]:
        if interrupt["id"] in answers:
            resume.append(answers[interrupt["id"]])
        elif not expired(interrupt):
            resume.append({"interrupt_id": interrupt["id"], "status": "cancelled"})
    return ContinuedReply(list(conversation[:last]), conversation[last], resume, typed)
