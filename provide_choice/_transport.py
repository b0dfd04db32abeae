"""The transport seam: where a question is shown is one `Transport`, chosen by one rule.

A transport only has to show a validated question and report an `Outcome`; validation before and
normalization after are the server's job, the same for all of them. The in-process terminal lives
here; the terminal hand-off, the web portal and MCP elicitation plug in as more entries of the
`Transports` mapping given to `create_server`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from provide_choice._request import ProvideChoiceRequest, RequestedTransport
from provide_choice._response import Outcome, TimedOut, TransportName
from provide_choice._settings import InteractionSettings, PreferredTransport, save_settings


@dataclass
class WaitStatus:
    """What the MCP client hears while a question waits. The server's progress heartbeat reads it;
    a transport that shows the question somewhere else updates it, so the client learns the address
    to open, and a deadline the person moved, at once rather than at the next heartbeat."""

    deadline: float
    """`time.monotonic()` value of the deadline as it stands now."""
    url: str | None = None
    """Where the question is shown, once a transport shows it at an address."""
    changed: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def update(self, *, url: str | None = None, deadline: float | None = None) -> None:
        if url is not None:
            self.url = url
        if deadline is not None:
            self.deadline = deadline
        self.changed.set()


@dataclass(frozen=True)
class Interaction:
    """Everything a transport needs to ask one question."""

    request: ProvideChoiceRequest
    settings: InteractionSettings
    deadline: float
    """`time.monotonic()` value after which the question ends with a timeout."""
    wait_status: WaitStatus | None = field(default=None, compare=False)
    """What the MCP call's progress notifications report while the question waits."""

    @classmethod
    def start(cls, request: ProvideChoiceRequest, settings: InteractionSettings) -> Interaction:
        """An interaction whose deadline runs from now."""
        deadline = time.monotonic() + effective_timeout(request, settings)
        return cls(request, settings, deadline, WaitStatus(deadline))

    @property
    def timeout_seconds(self) -> int:
        return effective_timeout(self.request, self.settings)


def effective_timeout(request: ProvideChoiceRequest, settings: InteractionSettings) -> int:
    """The person's timeout override, when set, replaces the agent's timeout."""
    return settings.timeout_override_seconds or request.timeout_seconds


class Transport(Protocol):
    """Shows a question somewhere and reports what the person did.

    `ask` returns `TimedOut` once `interaction.deadline` passes, and lets cancellation (the MCP
    client cancelled the call) close whatever it shows and propagate.
    """

    async def ask(self, interaction: Interaction) -> Outcome: ...


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

    One terminal shows one question at a time: later calls wait their turn, within their deadline.
    """

    def __init__(self, output: TextIO) -> None:
        self._output = output
        self._turn = asyncio.Lock()

    async def ask(self, interaction: Interaction) -> Outcome:
        # Imported here: questionary and prompt_toolkit load only when a question is asked,
        # which keeps the server's start-up fast.
        from provide_choice._terminal import run_terminal_flow, terminal_session

        try:
            async with asyncio.timeout(interaction.deadline - time.monotonic()):
                await self._turn.acquire()
        except TimeoutError:
            return TimedOut(action=interaction.settings.timeout_action)
        try:
            with terminal_session(self._output):
                return await run_terminal_flow(
                    interaction.request,
                    interaction.settings,
                    interaction.deadline,
                    on_settings_change=save_settings,
                )
        finally:
            self._turn.release()
