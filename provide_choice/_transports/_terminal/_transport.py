"""`TerminalTransport`: the question in this process's own terminal (`serve --http` in a window)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TextIO

from provide_choice._contract._meaning import ending_of
from provide_choice._contract._response import Cancelled, summarize
from provide_choice._transports._base import Caller
from provide_choice._transports._kinds import TransportKind

if TYPE_CHECKING:
    from provide_choice._server._sessions import PendingQuestion
    from provide_choice._transports._registry import TransportSetup


class TerminalTransport:
    """Asks in this process's own terminal. One terminal shows one question at a time: later
    questions wait their turn, within their deadline. The question keeps its screen when a call
    stops waiting for it (`pending`)."""

    kind = TransportKind(
        "terminal",
        "The server's own terminal",
        preference="Terminal",
        inbox="Shown in its server's terminal",
    )
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, output: TextIO) -> None:
        self._output = output
        self._turn = asyncio.Lock()
        self._showing: set[asyncio.Task[None]] = set()

    @classmethod
    def build(cls, setup: TransportSetup) -> TerminalTransport | None:
        """Only where the server has a terminal of its own for questions."""
        return None if setup.terminal is None else cls(setup.terminal)

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        task = asyncio.get_running_loop().create_task(self._run(question))
        self._showing.add(task)
        task.add_done_callback(self._showing.discard)
        # The question may end without the person (the deadline, the agent's cancel): stop asking.
        question.on_finish(lambda _question: task.cancel())

    async def _run(self, question: PendingQuestion) -> None:
        # Imported here: questionary and prompt_toolkit load only when a question is asked,
        # which keeps the server's start-up fast.
        from provide_choice._transports._terminal._flow import (
            print_summary,
            run_terminal_flow,
            terminal_session,
        )

        interaction = question.interaction
        async with self._turn:
            with terminal_session(self._output):
                try:
                    reported = await run_terminal_flow(interaction.request, question)
                except asyncio.CancelledError:
                    # Ended without the person's keys (the agent's cancel, the deadline's timer,
                    # an interrupt): the screen is gone, so say how, as the flow does.
                    ending = question.outcome or Cancelled(by="agent")
                    print_summary(summarize(interaction.request, ending))
                    raise
                question.finish(
                    ending_of(reported, interaction.request, question.interaction.settings)
                )
