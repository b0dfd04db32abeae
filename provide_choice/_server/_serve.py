"""Running the MCP server: over stdio (a client starts it), or streamable HTTP on 127.0.0.1.

Over stdio the client owns the terminal, so questions go to the page, the client's dialog, or a
terminal the agent opens; over HTTP in a terminal window they can appear right there. Either way
the local bridge (hand-off and pages) stops with the server, Ctrl-C stops it, and a client that
goes away ends it quietly.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from functools import partial

import anyio
from mcp.server.mcpserver import MCPServer

from provide_choice._history._recorder import HistoryRecorder, start_recorder
from provide_choice._question import QuestionRegistry
from provide_choice._server._mcp_server import create_server
from provide_choice._server._provide_choice_tool import MAX_WAIT_SECONDS
from provide_choice._server._unattended import AnswerPolicy
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
    setup = TransportSetup(
        QuestionRegistry(recorder=recorder), bridge=bridge, open_browser=open_browser
    )
    server = create_server(setup=setup, max_wait_seconds=max_wait_seconds, policy=policy)
    _announce(policy)
    try:
        anyio.run(_serve_stdio, server, bridge, recorder)
    except BaseException as error:
        if not _client_went_away(error):
            raise
        # Nothing reads our stdout any more: send what is left in its buffer nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _note("the MCP client went away (its end of stdio closed); stopping")


async def _serve_stdio(server: MCPServer, bridge: Bridge, recorder: HistoryRecorder) -> None:
    async with anyio.create_task_group() as group:
        group.start_soon(_exit_on_signal, bridge, recorder)
        await _until_stopped(server.run_stdio_async, bridge)
        group.cancel_scope.cancel()


async def _exit_on_signal(bridge: Bridge, recorder: HistoryRecorder) -> None:
    """Ctrl-C (SIGINT) or SIGTERM: stop the bridge, write what the history has queued, say so, and
    exit with 128 + the signal number.

    Exiting at once is deliberate: the SDK reads stdin in a worker thread that no cancellation
    can interrupt, so the usual KeyboardInterrupt leaves the server hanging until stdin closes.
    """
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for number in signals:
            with anyio.move_on_after(GRACEFUL_STOP_SECONDS, shield=True):
                await bridge.aclose()
            await anyio.to_thread.run_sync(recorder.close)  # os._exit skips its atexit hook
            _note(f"stopped ({'Ctrl-C' if number == signal.SIGINT else 'SIGTERM'})")
            os._exit(128 + number)


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
    print(f"provide-choice: MCP server at {address}; {where}.", file=sys.stderr, flush=True)
    bridge = Bridge(port=bridge_port)
    setup = TransportSetup(
        QuestionRegistry(recorder=start_recorder()),
        bridge=bridge,
        terminal=terminal,
        open_browser=open_browser,
    )
    server = create_server(setup=setup, max_wait_seconds=max_wait_seconds, policy=policy)
    _announce(policy)
    anyio.run(_until_stopped, partial(_serve_http, server, listener), bridge)


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

    config = uvicorn.Config(
        server.streamable_http_app(host=HOST),
        # The terminal shows questions: no access log on stdout, only warnings on stderr.
        log_config=None,
        log_level="warning",
    )
    # The socket is already listening, so clients may connect as soon as the address is printed.
    await uvicorn.Server(config).serve(sockets=[listener])
