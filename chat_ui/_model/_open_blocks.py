"""The blocks of a conversation that a later message can still decide, and showing what it decided.

A choices block is decided by the first user message after its reply (see `answers`); the interrupts
of a reply by the answers, errors and messages after it (see `interrupt_states`). Each reply with
such a block stays here, by its place in the history, until a message has decided it for good: a
new message then updates only those, and reads only the messages since the earliest of them, so a
long conversation costs no more than a short one.
"""

from __future__ import annotations

from collections.abc import Sequence

from chat_ui._conversation import Message, answers
from chat_ui._interrupt_group import AnswerHandler
from chat_ui._interrupts import interrupt_states
from chat_ui._message import AssistantMessage


class OpenBlocks:
    """Replies whose blocks a later message may still decide, each with its element."""

    def __init__(self) -> None:
        self._open: list[tuple[int, AssistantMessage]] = []

    def add(
        self,
        history: Sequence[Message],
        index: int,
        reply: AssistantMessage,
        on_answer: AnswerHandler,
    ) -> None:
        """Show the interrupts of the reply at `index` of `history`, shown as `reply`, as the
        messages after it decide them (`on_answer` takes an answer to one), and follow the reply
        while a later message may still decide its blocks."""
        message = history[index]
        closed = True
        if "interrupts" in message:
            states, closed = interrupt_states(message, history[index + 1 :])
            reply.show_interrupts(message["interrupts"], states, on_answer)
        if reply.body.answer is None or not closed:
            self._open.append((index, reply))

    def clear(self) -> None:
        self._open = []

    def show(self, history: Sequence[Message]) -> None:
        """Show every open block as `history` now decides it; forget those decided for good."""
        if not self._open:
            return
        start = self._open[0][0]
        following = answers(history[start:])
        still_open: list[tuple[int, AssistantMessage]] = []
        for index, reply in self._open:
            reply.body.set_answer(following[index - start])
            closed = True
            if reply.interrupts:
                states, closed = interrupt_states(history[index], history[index + 1 :])
                reply.set_interrupt_states(states)
            if reply.body.answer is None or not closed:
                still_open.append((index, reply))
        self._open = still_open
