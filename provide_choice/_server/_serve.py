"""Running the MCP server: over stdio (a client starts it), or streamable HTTP on 127.0.0.1.

Over stdio the client owns the terminal, so questions go to the page, the client's dialog, or a
terminal the agent opens; over HTTP in a terminal window they can appear right there. Either way
the local bridge (hand-off and pages) stops with the server, Ctrl-C or SIGTERM stops it at once
(one line, exit status 0), and a client that goes away ends it quietly.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import Any, TextIO

import anyio
from mcp.server.mcpserver import MCPServer

from present_choices._stopping import Stopped, stop_on_signals
from provide_choice._history._recorder import HistoryRecorder, start_recorder
from provide_choice._question import QuestionRegistry, Recorders
from provide_choice._server._mcp_server import create_server
from provide_choice._server._provide_choice_tool import MAX_WAIT_SECONDS
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._transports._alerts import QuestionAlerts
from provide_choice._transports._base import TransportSetup
from provide_choice._web._bridge import Bridge
from provide_choice._web._local_http import HOST, loopback_listener

GRACEFUL_STOP_SECONDS = 2.0


def serve_stdio(
    *,
    bridge_port: int = 0,
    open_browser: bool = True,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
    policy: AnswerPolicy | None = None,
) -> None:
    """Serve on stdin/stdout. The terminal there belongs to the MCP client, so questions open in
    the browser, or for the terminal are handed off to one the agent opens; the bridge for both
    uses `bridge_port`. `policy` says who answers when nobody can (the person, always, without)."""
    recorder = start_recorder()
    bridge = Bridge(port=bridge_port)
    setup = TransportSetup(recorded_and_alerted(recorder), bridge=bridge, open_browser=open_browser)
    server = create_server(setup=setup, max_wait_seconds=max_wait_seconds, policy=policy)
    _announce(policy)
    try:
        with _stopped_while_starting():
            anyio.run(_serve_until_signal, server.run_stdio_async, bridge, recorder, None)
    except BaseException as error:
        if not _client_went_away(error):
            raise
        # Nothing reads our stdout any more: send what is left in its buffer nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _note("the MCP client went away (its end of stdio closed); stopping")


async def _serve_until_signal(
    serve: Callable[[], Awaitable[None]],
    bridge: Bridge,
    recorder: HistoryRecorder,
    terminal: TerminalState | None,
) -> None:
    async with anyio.create_task_group() as group:
        group.start_soon(_exit_on_signal, bridge, recorder, terminal)
        await _until_stopped(serve, bridge)
        group.cancel_scope.cancel()


async def _exit_on_signal(
    bridge: Bridge, recorder: HistoryRecorder, terminal: TerminalState | None
) -> None:
    """Ctrl-C (SIGINT) or SIGTERM: stop the bridge, write what the history has queued, give the
    terminal back as it was, say so, and exit with status 0 (a stop the person asked for).

    Exiting at once is deliberate. Over stdio, the SDK reads stdin in a worker thread that no
    cancellation can interrupt, so the usual KeyboardInterrupt leaves the server hanging until
    stdin closes; over HTTP, a tool call waits for its person up to `--max-wait`, and uvicorn's
    graceful stop would wait for it. The questions still open are left as a server killed leaves
    them: the history says their server stopped first, and the inbox drops them.
    """
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for number in signals:
            with anyio.move_on_after(GRACEFUL_STOP_SECONDS, shield=True):
                await bridge.aclose()
            await anyio.to_thread.run_sync(recorder.close)  # os._exit skips its atexit hook
            if terminal is not None:
                terminal.restore()
            _note(f"stopped ({'Ctrl-C' if number == signal.SIGINT else 'SIGTERM'})")
            os._exit(0)


@contextlib.contextmanager
def _stopped_while_starting() -> Iterator[None]:
    """A stop signal that comes before `_exit_on_signal` listens (while the server starts, its
    address maybe printed already) stops it as quietly."""
    try:
        with stop_on_signals():
            yield
    except Stopped as stop:
        _note(f"stopped ({stop})")


def _client_went_away(error: BaseException) -> bool:
    """Whether `error` is only the MCP client's end of stdio closing under a write."""
    gone = (BrokenPipeError, ConnectionResetError)
    if isinstance(error, BaseExceptionGroup):
        _matched, rest = error.split(gone)
        return rest is None
    return isinstance(error, gone)


def _note(message: str) -> None:
    print(f"provide-choice: {message}", file=sys.stderr, flush=True)


def serve_http(
    port: int,
    *,
    handoff: bool = False,
    bridge_port: int = 0,
    open_browser: bool = True,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
    policy: AnswerPolicy | None = None,
) -> None:
    """Serve streamable HTTP on 127.0.0.1 (port 0 picks a free one); questions appear in this
    process's terminal, or with `handoff` in a terminal the agent opens. Raises `OSError` when the
    port cannot be bound."""
    listener = loopback_listener(port)
    has_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    terminal = sys.stdout if has_terminal and not handoff else None
    if handoff:
        where = "questions for the terminal are handed off to one the agent opens (--handoff)"
    elif terminal is not None:
        where = "questions appear in this terminal"
    else:
        where = "no terminal here (stdin and stdout must be one), so questions open in the browser"
    address = f"http://{HOST}:{listener.getsockname()[1]}/mcp"
    with _stopped_while_starting():
        print(f"provide-choice: MCP server at {address}; {where}.", file=sys.stderr, flush=True)
        bridge = Bridge(port=bridge_port)
        recorder = start_recorder()
        setup = TransportSetup(
            recorded_and_alerted(recorder),
            bridge=bridge,
            terminal=terminal,
            open_browser=open_browser,
        )
        server = create_server(setup=setup, max_wait_seconds=max_wait_seconds, policy=policy)
        _announce(policy)
        serve = partial(_serve_http, server, listener)
        held = None if terminal is None else TerminalState.of(sys.stdin, terminal)
        anyio.run(_serve_until_signal, serve, bridge, recorder, held)


def recorded_and_alerted(history: HistoryRecorder) -> QuestionRegistry:
    """The questions of this process: recorded in the history, and alerted (a failed alert is
    noted in the history too)."""
    alerts = QuestionAlerts(failed=history.alert_failed)
    return QuestionRegistry(recorder=Recorders(history, alerts))


def _announce(policy: AnswerPolicy | None) -> None:
    for notice in policy.notices() if policy is not None else ():
        _note(notice)


async def _until_stopped(serve: Callable[[], Awaitable[None]], bridge: Bridge) -> None:
    """Serve; when the MCP server stops, stop the bridge with it."""
    try:
        await serve()
    finally:
        await bridge.aclose()


async def _serve_http(server: MCPServer, listener: socket.socket) -> None:
    # Deferred for start-up time: loaded only when this runs.
    import uvicorn

    class SignalsLeftAlone(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn would take over SIGINT/SIGTERM while serving; `_exit_on_signal` has them.
            yield

    config = uvicorn.Config(
        server.streamable_http_app(host=HOST),
        # The terminal shows questions: no access log on stdout, only warnings on stderr.
        log_config=None,
        log_level="warning",
    )
    # The socket is already listening, so clients may connect as soon as the address is printed.
    await SignalsLeftAlone(config).serve(sockets=[listener])


class TerminalState:
    """The terminal's settings as the server found them, put back before it exits at once: a
    question on screen holds the terminal in raw mode, with the cursor hidden, and a process that
    exits without unwinding its screen would leave it so."""

    def __init__(self, keys: int, screen: int, settings: list[Any]) -> None:
        self.keys = keys
        self.screen = screen
        self.settings = settings

    @classmethod
    def of(cls, keys: TextIO, screen: TextIO) -> TerminalState | None:
        try:
            import termios  # not on Windows, where there is nothing to put back
        except ImportError:
            return None
        try:
            return cls(keys.fileno(), screen.fileno(), termios.tcgetattr(keys.fileno()))
        except (OSError, ValueError, termios.error):
            return None

    def restore(self) -> None:
        """Put the settings back when a screen changed them; show the cursor, end bracketed
        paste, and start a line of its own for what follows."""
        import termios  # here as in `of`: there is no TerminalState where it is missing

        with contextlib.suppress(OSError, termios.error):
            if termios.tcgetattr(self.keys) != self.settings:
                termios.tcsetattr(self.keys, termios.TCSANOW, self.settings)
                os.write(self.screen, b"\x1b[?25h\x1b[?2004l\r\n")
