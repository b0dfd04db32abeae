"""The transport seam: where a question is shown is one `Transport`, chosen by one rule.

A transport only has to show a validated question and finish it with what the person did;
validation before, waiting (bounded by `serve --max-wait`, then polled) and normalization after are
the server's job, the same for all of them. The in-process terminal lives here; the terminal
hand-off and the web portal plug in as more entries of the `Transports` mapping given to
`create_server`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TextIO

from provide_choice._request import ProvideChoiceRequest, RequestedTransport
from provide_choice._response import Cancelled, PendingLaunch, TransportName, summarize
from provide_choice._settings import InteractionSettings, PreferredTransport, save_changes

if TYPE_CHECKING:
    from provide_choice._sessions import PendingQuestion


class TransportError(Exception):
    """A transport cannot show the question here; the message says why and what to do."""


class AgentClient(NamedTuple):
    """The MCP client that asked, as it names itself (its `clientInfo`): the history and the inbox
    say which agent a question came from."""

    name: str
    version: str


@dataclass(frozen=True)
class Interaction:
    """Everything a transport needs to ask one question."""

    request: ProvideChoiceRequest
    settings: InteractionSettings
    deadline: float
    """`time.monotonic()` value after which the question ends with a timeout."""
    client: AgentClient | None = None
    """The MCP client that asked, when it said who it is."""

    @classmethod
    def start(
        cls,
        request: ProvideChoiceRequest,
        settings: InteractionSettings,
        client: AgentClient | None = None,
    ) -> Interaction:
        """An interaction whose deadline runs from now."""
        deadline = time.monotonic() + effective_timeout(request, settings)
        return cls(request, settings, deadline, client)


def effective_timeout(request: ProvideChoiceRequest, settings: InteractionSettings) -> int:
    """The person's timeout override, when set, replaces the agent's timeout."""
    return settings.timeout_override_seconds or request.timeout_seconds


class Transport(Protocol):
    """Shows a question somewhere; the person's answer, cancel or the deadline finish it.

    `show` returns once the question is shown, or raises `TransportError`. It returns the command
    the person must run first when the question waits for them to open it (the terminal hand-off),
    else None. Whatever it shows follows `question.on_finish`: the question may end elsewhere (the
    deadline, the agent's cancel), and the surface then says how it ended.
    """

    cancelled_with_the_call: bool
    """Whether the agent cancelling a call that waits for this question cancels the question.
    A hand-off keeps it: the agent's terminal tool may still be showing it to the person."""

    async def show(self, question: PendingQuestion) -> PendingLaunch | None: ...


Transports = Mapping[TransportName, Transport]


def choose_transport(
    requested: RequestedTransport | None, preferred: PreferredTransport, terminal_usable: bool
) -> TransportName:
    """The agent's explicit choice wins, then the person's preferred transport, then: the terminal
    when this process has one, else the web portal. A terminal request without a usable terminal
    becomes a hand-off the person opens in a terminal of their own."""
    wanted = requested or (None if preferred == "auto" else preferred)
    if wanted == "web":
        return "web"
    if wanted == "terminal":
        return "terminal" if terminal_usable else "terminal_handoff"
    return "terminal" if terminal_usable else "web"


class TerminalTransport:
    """Asks in this process's own terminal (`provide-choice serve --http` in a terminal window).

    One terminal shows one question at a time: later questions wait their turn, within their
    deadline. The question keeps its screen when a call stops waiting for it (`pending`).
    """

    cancelled_with_the_call = True

    def __init__(self, output: TextIO) -> None:
        self._output = output
        self._turn = asyncio.Lock()
        self._showing: set[asyncio.Task[None]] = set()

    async def show(self, question: PendingQuestion) -> None:
        task = asyncio.get_running_loop().create_task(self._run(question))
        self._showing.add(task)
        task.add_done_callback(self._showing.discard)
        # The question may end without the person (the deadline, the agent's cancel): stop asking.
        question.on_finish(lambda _question: task.cancel())

    async def _run(self, question: PendingQuestion) -> None:
        # Imported here: questionary and prompt_toolkit load only when a question is asked,
        # which keeps the server's start-up fast.
        from provide_choice._terminal import print_summary, run_terminal_flow, terminal_session

        interaction = question.interaction
        async with self._turn:
            with terminal_session(self._output):
                try:
                    outcome = await run_terminal_flow(
                        interaction.request,
                        interaction.settings,
                        interaction.deadline,
                        on_settings_change=lambda updates: _follow_settings(question, updates),
                    )
                except asyncio.CancelledError:
                    if isinstance(question.outcome, Cancelled | None):
                        ending = question.outcome or Cancelled(by="agent")
                        print_summary(summarize(interaction.request, ending))
                    raise
                question.finish(outcome)


def _follow_settings(question: PendingQuestion, updates: Mapping[str, Any]) -> None:
    """Settings the person changed while the question is shown: saved for later questions, and
    this question follows them (its timeout action, a longer deadline)."""
    save_changes(updates)
    question.change_settings(updates)
