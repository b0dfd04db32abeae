"""The blocks of a conversation that a later message can still decide, and what each new message
decides.

A choices block is decided by the first user message after its reply (see `answers`); the interrupts
of a reply by the answers, errors and messages after it (see `interrupt_states`). Each reply with
such a block stays here, by its place in the history, until a message has decided it for good: a
new message then reads only the messages since the earliest of them, and says what changed for
those only, so a long conversation costs no more than a short one. A front end draws what this
says (`BlockUpdate`); it never works out a block's state itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chat_ui._model._conversation import Message, answers
from chat_ui._model._interrupts import InterruptState, interrupt_states

InterruptStates = dict[str, InterruptState]
"""The state of each interrupt of a reply, by the interrupt's id."""


@dataclass(frozen=True)
class BlockUpdate:
    """What the blocks of the reply at `index` show now: its choices blocks as `answer` (the first
    user message after it) decides them, and its interrupts in `interrupts` (None: it has none)."""

    index: int
    answer: str | None
    interrupts: InterruptStates | None


class OpenBlocks:
    """The replies whose blocks a later message may still decide, by their place in the history."""

    def __init__(self) -> None:
        self._open: list[int] = []

    def add(self, history: Sequence[Message], index: int, answer: str | None) -> BlockUpdate:
        """Follow the reply at `index` of `history` (`answer`: the first user message after it)
        while a later message may still decide its blocks: what its blocks show now."""
        message = history[index]
        closed = True
        states = None
        if "interrupts" in message:
            states, closed = interrupt_states(message, history[index + 1 :])
        if answer is None or not closed:
            self._open.append(index)
        return BlockUpdate(index, answer, states)

    def clear(self) -> None:
        self._open = []

    def decide(self, history: Sequence[Message]) -> list[BlockUpdate]:
        """What every open block shows as `history` now decides it (forgetting those decided for
        good), oldest first."""
        if not self._open:
            return []
        start = self._open[0]
        following = answers(history[start:])
        updates: list[BlockUpdate] = []
        still_open: list[int] = []
        for index in self._open:
            answer = following[index - start]
            closed = True
            states = None
            if history[index].get("interrupts"):
                states, closed = interrupt_states(history[index], history[index + 1 :])
            updates.append(BlockUpdate(index, answer, states))
            if answer is None or not closed:
                still_open.append(index)
        self._open = still_open
        return updates
