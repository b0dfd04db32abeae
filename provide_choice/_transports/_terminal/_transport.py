"""`TerminalTransport`: the question in this process's own terminal (`serve --http` in a window),
one question or a batch of them."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TextIO

from present_choices._translation import terminal_translation
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._batch_meaning import kept_answer
from provide_choice._contract._meaning import Submission, ending_of
from provide_choice._contract._outcomes import Cancelled, Ending
from provide_choice._settings_file import load_settings, terminal_words
from provide_choice._transports._base import Caller
from provide_choice._transports._kinds import TERMINAL

if TYPE_CHECKING:
    from provide_choice._question import PendingQuestion
    from provide_choice._transports._base import TransportSetup


class TerminalTransport:
    """Asks in this process's own terminal. One terminal shows one question at a time: later
    questions wait their turn, within their deadline. The question keeps its screen when a call
    stops waiting for it (`pending`).

    A server that shares its questions with other instances (`--redis`) is one of several behind a
    proxy, and which one an agent's call reaches is the proxy's choice: its terminal asks only the
    questions that name it (`named_only`), and the others go where every instance reaches them,
    the page (its address is the one line this terminal shows of such a question)."""

    kind = TERMINAL
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, output: TextIO, *, named_only: bool = False) -> None:
        self._output = output
        self.named_only = named_only
        """Asked only when the request or the person's setting names the terminal."""
        self._turn = asyncio.Lock()
        self._showing: set[asyncio.Task[None]] = set()

    @classmethod
    def build(cls, setup: TransportSetup) -> TerminalTransport | None:
        """Only where the server has a terminal of its own for questions; inside a tmux that
        would drop its alerts, it says so as it starts."""
        if setup.terminal is None:
            return None
        from provide_choice._transports._terminal_view._alert_sequence import (
            say_when_tmux_drops_alerts,
        )

        say_when_tmux_drops_alerts(load_settings().alerts.on("terminal"), terminal_words())
        return cls(setup.terminal, named_only=setup.questions.store is not None)

    def warm(self) -> None:
        """The terminal's flows, and with them questionary and prompt_toolkit (`Warms`)."""
        import provide_choice._transports._terminal_view._batch_flow
        import provide_choice._transports._terminal_view._flow  # noqa: F401

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        task = asyncio.get_running_loop().create_task(self._run(question))
        self._showing.add(task)
        task.add_done_callback(self._showing.discard)
        # The question may end without the person (the deadline, the agent's cancel): stop asking.
        question.on_finish(lambda _question: task.cancel())

    async def _run(self, question: PendingQuestion) -> None:
        # Imported here: questionary and prompt_toolkit load only when a question is asked,
        # which keeps the server's start-up fast.
        from provide_choice._transports._terminal_view._flow import (
            print_closing_line,
            terminal_session,
        )

        interaction = question.interaction
        async with self._turn:
            with terminal_session(self._output):
                try:
                    ending = await _shown(question)
                except asyncio.CancelledError:
                    # Ended without the person's keys (the agent's cancel, the deadline's timer,
                    # an interrupt): the screen is gone, so say how, as the flow does.
                    ending = question.outcome or Cancelled(by="agent")
                    words = terminal_translation(question.settings.language)
                    print_closing_line(interaction.asked, ending, words)
                    raise
                question.finish(ending)


async def _shown(question: PendingQuestion) -> Ending:
    """Show the question (or the batch) in this terminal; how the person's keys end it."""
    # Deferred for start-up time: loaded only when this runs.
    from provide_choice._transports._terminal_view._batch_flow import batch_ending, run_batch_flow
    from provide_choice._transports._terminal_view._flow import run_terminal_flow

    asked = question.interaction.asked
    if not isinstance(asked, BatchRequest):
        reported = await run_terminal_flow(asked, question)
        return ending_of(reported, asked, question.interaction.settings)
    batch = asked

    async def keep(question_id: str, submission: Submission) -> None:
        item = batch.question(question_id)
        if item is not None:
            question.keep(question_id, kept_answer(submission, item.request, question.settings))

    reported_batch = await run_batch_flow(batch, question, keep)
    # A cancel or a timeout keeps what `keep` was told: the question adds it as it finishes.
    return batch_ending(reported_batch, batch, question.interaction.settings, {})
