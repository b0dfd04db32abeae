"""The conversation history: what a message is, and the block states derived from the messages.

A choices block has no state of its own: whether it is pending, answered or outdated follows from the
messages after it. Deriving it (instead of storing it beside the history) is what makes a reloaded
page or a replayed conversation look exactly like the live one, and it is why a message is all a
store needs to keep, one at a time, as plain JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from pydantic import ValidationError

from present_choices import TOOL_NAME, ChoicePrompt

Role = Literal["user", "assistant", "error", "answer"]
BlockStatus = Literal["pending", "answered", "outdated"]
ResumeStatus = Literal["resolved", "cancelled"]


class ToolCall(TypedDict):
    """A tool call the model made, kept as data: its `id`, the tool's `name`, and the call's
    `arguments` as the JSON object the tool was called with."""

    id: str
    name: str
    arguments: dict[str, Any]


class Interrupt(TypedDict):
    """A question a reply ended with that the agent needs answered before it goes on (an AG-UI
    interrupt, a pydantic-ai tool call that needs approval), kept as data: its `id`, the `message`
    it asks the person, its `reason`, the `tool_call` it concerns (with the call's arguments),
    the JSON Schema its answer must follow, and when it stops being answerable (ISO 8601)."""

    id: str
    message: str
    reason: str
    tool_call: NotRequired[ToolCall]
    response_schema: NotRequired[dict[str, Any]]
    expires_at: NotRequired[str]


class Resume(TypedDict):
    """The person's answer to one interrupt, as it goes back to the agent: `resolved` with the
    `payload` the interrupt's schema asks for, or `cancelled` (no payload)."""

    interrupt_id: str
    status: ResumeStatus
    payload: NotRequired[Any]


class Message(TypedDict):
    """One chat message as stored: plain JSON that holds everything about it, so it persists in
    any store as it is (a browser's storage, Redis), and a store can append messages one at a time.

    `error` messages tell the person that the agent failed; they are part of what the person saw,
    so they are kept, but agents never see them (see `conversation`).

    An assistant message whose model asked with a `present_choices` tool call keeps that call in
    `tool_call`, and only its own text in `content`: the block is shown from the call's arguments
    (see `asked_prompt`), and the call goes back to the model as the call it made.

    `thread_id` is on the message of the reply that started a conversation at the agent's end (an
    AG-UI thread, see `ThreadStarted`): the agent reads it back from the history on later turns.

    An assistant message whose reply ended waiting for answers keeps its `interrupts`. Each answer
    is a message of its own, role `answer`, holding the `resume` entry that goes back to the agent
    (and in `content`, what was picked, in words); none is shown as a bubble: the interrupt's group
    shows it. Once every interrupt still answerable is answered, the agent continues the reply.

    A reply is saved while it streams, with `streaming` set to an id of that reply and `saved_at` to
    when it was last saved (seconds since the epoch; it is saved again every few seconds while it
    lasts, even when no text comes), so that a reply whose app stopped mid-way is not lost without a
    trace: read back once no save has come for a while, it is kept with `cut_off` instead, shown as
    cut off, and not given to the agent (it never finished it).
    """

    role: Role
    content: str
    tool_call: NotRequired[ToolCall]
    thread_id: NotRequired[str]
    interrupts: NotRequired[list[Interrupt]]
    resume: NotRequired[Resume]
    streaming: NotRequired[str]
    saved_at: NotRequired[float]
    cut_off: NotRequired[bool]


@dataclass(frozen=True)
class BlockState:
    """What a choices block shows: `chosen` is the picked option's value when `status` is answered."""

    status: BlockStatus
    chosen: str | None = None


PENDING = BlockState("pending")

SILENT_REPLY: Message = {"role": "assistant", "content": ""}
"""A reply that went on from the person's answers to its interrupts without a word: kept, though
there is nothing to show, so that the conversation says the answers were taken (see `_interrupts`)."""


def block_state(prompt: ChoicePrompt, answer: str | None) -> BlockState:
    """The state of a block given `answer`, the first user message after it (None: none yet).

    Only the first user message counts: once someone has moved on, later messages cannot re-answer
    an old question, so a highlight never moves.
    """
    if answer is None:
        return PENDING
    if any(option.value == answer for option in prompt.options):
        return BlockState("answered", answer)
    return BlockState("outdated")


def answers(history: Sequence[Message]) -> list[str | None]:
    """For each message, the content of the first user message after it (None when none follows)."""
    result: list[str | None] = [None] * len(history)
    following: str | None = None
    for index in range(len(history) - 1, -1, -1):
        result[index] = following
        if history[index]["role"] == "user":
            following = history[index]["content"]
    return result


def conversation(history: Sequence[Message]) -> list[Message]:
    """The messages an agent is given: what the person and the agent said, without error notices,
    without replies that never finished (cut off, or still streaming in another tab), and without
    the answers to interrupts that an error notice or a reply cut off followed: the agent refused
    them or never finished going on from them, and the person answers again (`refused_answers`)."""
    given: list[Message] = []
    answers_since: int | None = None  # where the latest run of answers starts in `given`
    for message in history:
        if refused_answers(message):
            if answers_since is not None:
                del given[answers_since:]
            answers_since = None
        elif "streaming" in message:
            continue
        elif message["role"] == "answer":
            answers_since = len(given) if answers_since is None else answers_since
            given.append(message)
        else:
            answers_since = None
            given.append(message)
    return given


def refused_answers(message: Message) -> bool:
    """Whether `message`, following answers to interrupts, means the agent did not go on from
    them: an error notice (it refused them, or could not be reached), or a reply cut off (its app
    stopped before it finished). A reply still streaming is going on from them."""
    return message["role"] == "error" or bool(message.get("cut_off"))


_DRAFT_KEYS = ("streaming", "saved_at")


def cut_off(message: Message) -> Message:
    """`message`, a reply saved while it streamed, as kept once it is known never to finish."""
    kept: Message = {key: value for key, value in message.items() if key not in _DRAFT_KEYS}  # type: ignore[assignment]
    kept["cut_off"] = True
    return kept


def asked_prompt(message: Message) -> ChoicePrompt | None:
    """The block an assistant message asks with its `present_choices` call; None when it asks none
    (and when a stored call no longer holds a valid prompt: its text is still shown)."""
    call = message.get("tool_call")
    if call is None or call["name"] != TOOL_NAME:
        return None
    try:
        return ChoicePrompt.model_validate(call["arguments"])
    except ValidationError:
        return None
