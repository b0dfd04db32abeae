"""Running the MCP server: over stdio (a client starts it), or streamable HTTP.

Over stdio the client owns the terminal, so questions go to the page, the client's dialog, or a
terminal the agent opens, through a local bridge started on demand. Over HTTP in a terminal window
they can appear right there, and the pages and hand-offs are served on the server's own port, under
its public URL, beside the MCP endpoint (which asks for the server's token). Either way the bridge
stops with the server, Ctrl-C or SIGTERM stops it at once (one line, exit status 0), and a client
that goes away ends it quietly.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, TextIO

import anyio
from mcp.server.mcpserver import MCPServer

from present_choices._stopping import Stopped, stop_on_signals
from provide_choice._alerts import QuestionAlerts
from provide_choice._bridge._bridge import Bridge, ServedBridge
from provide_choice._bridge._local_http import listening_socket
from provide_choice._bridge._site import HOST, PublicUrl, Site, loopback_site, parse_public_url
from provide_choice._contract._transport_table import in_a_sentence, kind_of
from provide_choice._history._recorder import HistoryRecorder, start_recorder
from provide_choice._question import QuestionRegistry, QuestionStore, Recorders
from provide_choice._server._client_config import Remote, client_config
from provide_choice._server._http_app import ServerApplication
from provide_choice._server._mcp_server import create_server
from provide_choice._server._provide_choice_tool import MAX_WAIT_SECONDS
from provide_choice._server._token import STRONG_LENGTH, TOKEN_VARIABLE, ServerToken
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._settings_file import load_settings, terminal_words
from provide_choice._transports._base import TransportSetup
from provide_choice._transports._registry import build_transports, first_asking

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
    setup = recorded_and_alerted(recorder, bridge=bridge, open_browser=open_browser)
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
        _note(
            terminal_words().gettext("the MCP client went away (its end of stdio closed); stopping")
        )


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
            _note(Stopped(number).said(terminal_words()))
            os._exit(0)


@contextlib.contextmanager
def _stopped_while_starting() -> Iterator[None]:
    """A stop signal that comes before `_exit_on_signal` listens (while the server starts, its
    address maybe printed already) stops it as quietly."""
    try:
        with stop_on_signals():
            yield
    except Stopped as stop:
        _note(stop.said(terminal_words()))


def _client_went_away(error: BaseException) -> bool:
    """Whether `error` is only the MCP client's end of stdio closing under a write."""
    gone = (BrokenPipeError, ConnectionResetError)
    if isinstance(error, BaseExceptionGroup):
        _matched, rest = error.split(gone)
        return rest is None
    return isinstance(error, gone)


def _serving_where(
    address: str, first: str | None, *, handoff: bool, terminal: bool, shared: bool
) -> str:
    """Where the server is, and where a question that names no transport appears (`first`: the
    first transport that asks it here, whatever the client; a client that draws apps or dialogs
    may take it before a page)."""
    words = terminal_words()
    if first == "terminal":
        return words.gettext(
            "MCP server at {address}; questions appear in this terminal.", address=address
        )
    if first not in (None, "web"):
        where = in_a_sentence(words.gettext(kind_of(first).label))
        return words.gettext(
            "MCP server at {address}; questions go to {where}.", address=address, where=where
        )
    if handoff:
        return words.gettext(
            "MCP server at {address}; questions for the terminal are handed off to one the agent "
            "opens (--handoff).",
            address=address,
        )
    if terminal and shared:
        return words.gettext(
            "MCP server at {address}; questions open on their page, which every instance sharing "
            "them serves (--redis); one that names the terminal appears in this terminal.",
            address=address,
        )
    if terminal:
        return words.gettext(
            "MCP server at {address}; questions open in the browser (your setting); one that "
            "names the terminal appears in this terminal.",
            address=address,
        )
    return words.gettext(
        "MCP server at {address}; no terminal here (stdin and stdout must be one), so questions "
        "open in the browser.",
        address=address,
    )


def _note(message: str) -> None:
    print(f"provide-choice: {message}", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class HttpServing:
    """Where `serve --http` listens, where it is reached, and the token it asks for."""

    port: int
    host: str = HOST
    public_url: PublicUrl | None = None
    """Where people and agents reach it; None: `http://<host>:<port>`."""
    token: ServerToken | None = None
    """None: MCP requests need no token (`--no-auth`, for a server only this machine reaches)."""
    store: QuestionStore | None = None
    """Where the questions are kept, shared with every instance on it (`--redis`); None: here."""
    request_state_key: bytes | None = None
    """With a store: the key every instance seals retried calls' states with."""


def serve_http(
    serving: HttpServing,
    *,
    handoff: bool = False,
    open_browser: bool = True,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
    policy: AnswerPolicy | None = None,
) -> None:
    """Serve streamable HTTP at `/mcp` and the bridge's routes (pages, hand-offs) beside it, on one
    port; questions appear in this process's terminal, or with `handoff` in a terminal the agent
    opens. Raises `OSError` when the port cannot be bound."""
    listener = listening_socket(serving.port, serving.host)
    bound = listener.getsockname()[1]
    public = serving.public_url or parse_public_url(f"http://{_in_url(serving.host)}:{bound}")
    has_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    terminal = sys.stdout if has_terminal and not handoff else None
    endpoint = f"{public.base}/mcp"
    address = (
        endpoint
        if serving.public_url is None
        else terminal_words().gettext(
            "{url} (listening on {host}:{port})", url=endpoint, host=serving.host, port=bound
        )
    )
    with _stopped_while_starting():
        site = loopback_site(bound) | public.site()
        bridge = ServedBridge(public, site)
        recorder = start_recorder()
        setup = recorded_and_alerted(
            recorder, serving.store, bridge=bridge, terminal=terminal, open_browser=open_browser
        )
        built = build_transports(setup)
        first = first_asking(built, load_settings().transport)
        where = _serving_where(
            address,
            first,
            handoff=handoff,
            terminal=terminal is not None,
            shared=serving.store is not None,
        )
        _note(where)
        _say_about_the_token(serving.token, public)
        server = create_server(
            setup=setup,
            max_wait_seconds=max_wait_seconds,
            request_state_key=serving.request_state_key,
            policy=policy,
            built=built,
        )
        _announce(policy)
        serve = partial(_serve_http, server, listener, bridge, site, serving)
        held = None if terminal is None else TerminalState.of(sys.stdin, terminal)
        anyio.run(_serve_until_signal, serve, bridge, recorder, held)


def recorded_and_alerted(
    history: HistoryRecorder,
    store: QuestionStore | None = None,
    *,
    bridge: Bridge | None = None,
    terminal: TextIO | None = None,
    open_browser: bool = True,
) -> TransportSetup:
    """What the transports of this process are built from: its questions, recorded in the
    history and alerted (a failed alert is noted in the history too), with `store` shared with
    every instance on it; the alerts, which the transports that follow every question join."""
    alerts = QuestionAlerts(failed=history.alert_failed)
    questions = QuestionRegistry(recorder=Recorders(history, alerts), store=store)
    return TransportSetup(
        questions, bridge=bridge, terminal=terminal, open_browser=open_browser, alerts=alerts
    )


def _in_url(host: str) -> str:
    """`host` as a URL writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _say_about_the_token(token: ServerToken | None, public: PublicUrl) -> None:
    """Once, on stderr, terminal or not, in the person's language: a token made just now and how
    clients get it, a weak one, or none at all. The command to paste stays as the shell takes it."""
    words = terminal_words()
    if token is None:
        _note(
            words.gettext(
                "warning: --no-auth: any program on this machine can call this server's tools "
                "(ask the person questions in an agent's name) without a token"
            )
        )
        return
    endpoint = f"{public.base}/mcp"
    if token.made:
        command = client_config("claude-code", Remote(endpoint, token.value)).text
        _note(
            words.gettext(
                "made this server's token, in {file} (readable by you alone; ${variable} "
                "overrides it). Every MCP client sends it; for Claude Code:\n  {command}\n  "
                "(`provide-choice client-config CLIENT --http {endpoint}` prints the "
                "configuration for claude-desktop, cursor and vscode too)",
                file=token.source,
                variable=TOKEN_VARIABLE,
                command=command,
                endpoint=endpoint,
            )
        )
    if token.weak:
        _note(
            words.gettext(
                "warning: the token in {file} has {length} characters; {strong} random ones or "
                "more keep it unguessable (python3 -c 'import secrets; "
                "print(secrets.token_urlsafe(32))')",
                file=token.source,
                length=len(token.value),
                strong=STRONG_LENGTH,
            )
        )


def _announce(policy: AnswerPolicy | None) -> None:
    for notice in policy.notices(terminal_words()) if policy is not None else ():
        _note(notice)


async def _until_stopped(serve: Callable[[], Awaitable[None]], bridge: Bridge) -> None:
    """Serve; when the MCP server stops, stop the bridge with it."""
    try:
        await serve()
    finally:
        await bridge.aclose()


async def _serve_http(
    server: MCPServer,
    listener: socket.socket,
    bridge: ServedBridge,
    site: Site,
    serving: HttpServing,
) -> None:
    # Deferred for start-up time: loaded only when this runs.
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    # The server's own guard checks Host and Origin on every route, /mcp included (`HostGuard`).
    unguarded = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    # Several instances behind a proxy: any request may reach any of them, so none keeps a
    # session (the 2026-07-28 revision keeps none anyway; older clients then go without one).
    mcp_app = server.streamable_http_app(
        transport_security=unguarded, stateless_http=serving.store is not None
    )
    token = None if serving.token is None else serving.token.value

    class SignalsLeftAlone(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn would take over SIGINT/SIGTERM while serving; `_exit_on_signal` has them.
            yield

    config = uvicorn.Config(
        ServerApplication(mcp_app, bridge, site, token),
        # The terminal shows questions: no access log on stdout, only warnings on stderr.
        log_config=None,
        log_level="warning",
    )
    try:
        # The socket is already listening: clients may connect once the address is printed.
        await SignalsLeftAlone(config).serve(sockets=[listener])
    finally:
        if serving.store is not None:
            await serving.store.aclose()


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
