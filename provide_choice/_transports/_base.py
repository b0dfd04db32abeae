"""The transport seam: where a question is shown is one `Transport`, chosen by one rule.

A transport only has to show a validated question and finish it with what the person did;
validation before, waiting (bounded by `serve --max-wait`, then polled) and normalization after are
the server's job, the same for all of them. A transport is given the `Caller` (the MCP client of the
call) because some need it: the client's own dialog (elicitation), a page the client opens for the
person (URL-mode elicitation). Each transport is one module or folder whose class describes itself
(`kind`, a `TransportKind` of the contract's table) and builds itself (`build`) from what the server
set up (`TransportSetup`); `_registry` lists them. `provide_choice.transports` publishes this seam.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TextIO, runtime_checkable

from provide_choice._contract._outcomes import PendingLaunch
from provide_choice._contract._transport_table import ClientFeatures, TransportKind

if TYPE_CHECKING:
    from mcp.server.context import ServerMiddleware
    from mcp.server.extension import Extension
    from mcp.server.mcpserver.tools import Tool
    from mcp_types import ElicitRequestParams, ElicitResult, InputRequest

    from provide_choice._alerts import Alerts
    from provide_choice._bridge._bridge import Bridge
    from provide_choice._question import PendingQuestion, QuestionRegistry


class Caller(Protocol):
    """The MCP client that made the call, as far as a transport needs it."""

    @property
    def features(self) -> ClientFeatures:
        """What the client declared it can show, for this connection."""
        ...

    @property
    def input_required(self) -> bool:
        """Whether the connection speaks the 2026-07-28 revision: the server cannot send the
        client a request during a call, so a question goes back as an `input_required` result
        and comes back answered in a retried call."""
        ...

    async def elicit(self, params: ElicitRequestParams) -> ElicitResult:
        """Send `elicitation/create` now and wait for the client's answer (older revisions)."""
        ...

    async def elicitation_complete(self, elicitation_id: str) -> None:
        """Tell the client that the URL-mode elicitation `elicitation_id` has ended."""
        ...


@dataclass(frozen=True)
class InputNeeded:
    """What a transport returns to ask through the client on the 2026-07-28 revision: the call
    ends with these requests, and the client retries it with the answers (`Resumable.resume`)."""

    requests: Mapping[str, InputRequest]
    state: Mapping[str, Any] = field(default_factory=dict)
    """What the transport needs in the next round; the server adds the question's id and
    deadline, and the SDK seals the whole of it, so a client cannot alter it."""


Launch = PendingLaunch | InputNeeded
"""What `show` returns when the call must not wait for the answer now."""


class Transport(Protocol):
    """Shows a question somewhere; the person's answer, cancel or the deadline finish it.

    `show` returns once the question is shown, or raises `TransportError`. It returns a `Launch`
    when the call must end first: the command the person must run (the hand-off), or requests for
    the client (`InputNeeded`); else None, and the call waits. Whatever it shows follows
    `question.on_finish`: the question may end elsewhere (the deadline, the agent's cancel), and
    the surface then says how it ended.
    """

    cancelled_with_the_call: bool
    """Whether the agent cancelling a call that waits for this question cancels the question.
    A hand-off keeps it: the agent's terminal tool may still be showing it to the person."""

    bounded_wait: bool
    """Whether a call waits at most `--max-wait` for this question, then returns `pending`. The
    client's own dialog is not cut short: the client is showing it, and waits for it."""

    async def show(self, question: PendingQuestion, caller: Caller) -> Launch | None: ...


@runtime_checkable
class Resumable(Transport, Protocol):
    """A transport that may return `InputNeeded`, and takes the client's answers back."""

    async def resume(
        self,
        question: PendingQuestion,
        caller: Caller,
        responses: Mapping[str, object],
        state: Mapping[str, Any],
    ) -> Launch | None:
        """Go on with the question given the client's `responses` to the requests of the last
        round (and its `state`): finish it, ask again, or return None to wait for it."""
        ...


@runtime_checkable
class Closes(Protocol):
    """A transport with work of its own to end before its process does (a message to edit, a
    connection to close): `provide-choice ask` awaits it before it exits."""

    async def aclose(self) -> None: ...


Transports = Mapping[str, Transport]
"""A server's transports by name (`_registry.build_transports`)."""

CLOSING_SECONDS = 5.0
"""How long a transport's `aclose` may take at most."""


async def close_transports(transports: Transports) -> None:
    """End the work of every transport that `Closes`, each bounded by `CLOSING_SECONDS`."""
    closing = [
        transport.aclose() for transport in transports.values() if isinstance(transport, Closes)
    ]
    if closing:
        with suppress(TimeoutError):
            async with asyncio.timeout(CLOSING_SECONDS):
                await asyncio.gather(*closing, return_exceptions=True)


def _question_alerts() -> Alerts:
    """The alerts of a setup that names none. Loaded then: a plug-in that only registers (the
    hand-off terminal loads the plug-ins) never loads the question layer through this module."""
    from provide_choice._alerts import QuestionAlerts

    return QuestionAlerts()


@dataclass(frozen=True)
class TransportSetup:
    """What the server set up, for transports to build themselves from."""

    questions: QuestionRegistry
    bridge: Bridge | None = None
    """The local HTTP bridge for pages and hand-offs; None: the server has none."""
    terminal: TextIO | None = None
    """This process's own terminal, when questions may appear in it."""
    open_browser: bool = True
    """Whether a page opens in the browser by itself (else the person opens its address)."""
    alerts: Alerts = field(default_factory=_question_alerts)
    """The alerts of `questions` (one of its recorders): where a transport that follows every
    question (`Mirrors`) is handed, and where a transport says an alert could not be delivered.
    Without the server's own, alerts that hear of no question."""


@dataclass(frozen=True)
class TransportCommand:
    """A command a transport adds to `provide-choice`, named as the transport (`provide-choice
    telegram link`): its class sets `command` to one. The command line is built with it once the
    transport is registered, so `provide-choice NAME --help` describes it (the plug-ins load for a
    command not built in) and `provide-choice --help` lists it beside the built-in ones when it
    was registered in the process (the plug-ins do not load for `--help`, which stays quick)."""

    help: str
    """What it does, in one line (`provide-choice --help`; its own `--help` starts with it)."""
    arguments: Callable[[argparse.ArgumentParser], None]
    """Adds its arguments (its own subcommands, its options) to its parser."""
    run: Callable[[argparse.Namespace], int]
    """Runs it with what was parsed; returns the exit status."""


class TransportClass(Protocol):
    """A transport class as the registry takes it: its description and how to build one."""

    kind: TransportKind

    def build(self, setup: TransportSetup) -> Transport | None:
        """An instance for this server, or None when what it needs is not set up."""
        ...


@dataclass(frozen=True)
class ServerParts:
    """What a transport adds to the MCP server besides showing questions (the app transport: its
    tool, its views and the `_meta` naming them). The server asks every transport it built that
    has `server_parts` (`AddsToServer`), so a transport's parts live in its own folder."""

    tools: tuple[Tool, ...] = ()
    tool_meta: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """`_meta` for the server's own tools, by tool name (where a host finds a tool's view)."""
    extensions: tuple[Extension, ...] = ()
    middleware: tuple[ServerMiddleware[Any], ...] = ()


@runtime_checkable
class AddsToServer(Protocol):
    """A transport with parts of its own on the MCP server."""

    def server_parts(self) -> ServerParts: ...


@runtime_checkable
class Warms(Protocol):
    """A transport that loads what its first question needs before it is asked."""

    def warm(self) -> None:
        """Load now what showing a question here first needs (modules, catalogs, the parts of
        its page), so the first question comes as fast as the next. Called once, in a worker
        thread, after the server has answered `tools/list` (while the agent's model writes its
        first call); it only imports and fills caches, and a failure is the first question's
        to meet."""
        ...
