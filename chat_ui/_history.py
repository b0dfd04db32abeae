"""The conversation history and the block states derived from it.

A choices block has no state of its own: whether it is pending, answered or outdated follows from the
messages after it. Deriving it (instead of storing it beside the history) is what makes a reloaded
page or a replayed conversation look exactly like the live one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypedDict

from present_choices import ChoicePrompt

Role = Literal["user", "assistant", "error"]
BlockStatus = Literal["pending", "answered", "outdated"]


class Message(TypedDict):
    """One chat message as stored: plain JSON, so it persists in NiceGUI's storage as it is.

    `error` messages tell the person that the agent failed; they are part of what the person saw,
    so they are kept, but agents never see them (see `conversation`).
    """

    role: Role
    content: str


@dataclass(frozen=True)
class BlockState:
    """What a choices block shows: `chosen` is the picked option's value when `status` is answered."""

    status: BlockStatus
    chosen: str | None = None


PENDING = BlockState("pending")


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
    """The messages an agent is given: what the person and the agent said, without error notices."""
    return [message for message in history if message["role"] != "error"]
