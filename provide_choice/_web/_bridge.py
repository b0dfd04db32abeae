"""The bridge: one local HTTP server per MCP server process, for questions answered elsewhere.

The terminal hand-off (`/terminal/...`) and the web portal (`/choice/...`) add their routes to the
same bridge. It starts when the first pending question needs it and stops a little after the last
one ends (and when the MCP server stops), so an idle MCP server holds no listening port. It runs as a
task in the MCP server's own event loop; uvicorn and FastAPI are imported only when it first starts.

It listens on 127.0.0.1 only, and a middleware guards every route, because any web page the person
visits can send requests to a loopback port: a foreign `Host` is a DNS-rebinding attempt (403), a
state-changing request from a foreign `Origin` is a cross-site request (403), and requiring a JSON
body on those keeps plain HTML forms (which cannot send JSON without a CORS preflight) out (415).
Nothing here writes to stdout, which carries the MCP protocol over stdio.

Routes and refusals, the same for every feature on the bridge:

- A feature declares its routes in a `_routes` module beside its transport, as one function
  `install(app, *state)`, and adds them with `bridge.add_routes(lazy_routes(module, *state))`
  (`provide_choice._transports._handoff._routes`, `provide_choice._transports._portal._routes`).
- A request body is read with `read_json` (at most `BODY_LIMIT` bytes, UTF-8 JSON, no lone
  surrogates), and every refusal, from a route or from the guard, is `refusal(status, problems)`:
  the body `{"problems": ["what was wrong and what to do", ...]}`, whatever the route.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from provide_choice._contract._request import LONE_SURROGATE
from provide_choice._transports._base import TransportError

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse
    from starlette.requests import Request
    from starlette.types import ASGIApp, Receive, Scope, Send

    from provide_choice._server._sessions import PendingQuestion

HOST = "127.0.0.1"
STATE_CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
GRACEFUL_SHUTDOWN_SECONDS = 1

BODY_LIMIT = 64 * 1024
"""Bytes of one request body or WebSocket message, on every route; far above any real answer."""

RouteInstaller = Callable[["FastAPI"], None]


def lazy_routes(module: str, *state: object) -> RouteInstaller:
    """The one way a feature adds its routes: `module` (a `_routes` module beside its transport)
    has `install(app, *state)`. It is imported when the bridge first starts, so a server that never
    uses the feature never loads FastAPI for it."""

    def install(app: FastAPI) -> None:
        importlib.import_module(module).install(app, *state)

    return install


class BodyRefused(Exception):
    """A body the bridge cannot take: `status` and the problem to answer with."""

    def __init__(self, status: int, problem: str) -> None:
        super().__init__(problem)
        self.status = status
        self.problem = problem


async def read_json(request: Request) -> object:
    """The request's JSON body, refused (never read whole) past `BODY_LIMIT`; see `parse_json`."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise BodyRefused(413, f"the body must be at most {BODY_LIMIT} bytes")
    return parse_json(body)


def parse_json(body: bytes | str) -> object:
    """JSON text as data, or `BodyRefused` (422) for anything a later step could trip on: bytes
    that are not UTF-8, text that is not JSON, numbers or nesting past what Python parses, and lone
    surrogates (valid JSON escapes, but no text: they cannot be encoded to answer with)."""
    try:
        data = json.loads(body)
    except UnicodeDecodeError:
        raise BodyRefused(422, "the body must be UTF-8 text") from None
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as are huge numbers
        raise BodyRefused(
            422, "the body must be JSON (numbers under 4,300 digits, nesting under 1,000 deep)"
        ) from None
    if _holds_lone_surrogate(data):
        raise BodyRefused(
            422, "text must be valid Unicode: lone surrogates (\\ud800 to \\udfff) are not text"
        )
    return data


def _holds_lone_surrogate(data: object) -> bool:
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


class BridgeStartError(TransportError):
    """The bridge could not start (the configured port is taken, or the app failed to start)."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            f"the local bridge {reason}. Start the server with another --bridge-port, or 0 for "
            "any free port."
        )


class Bridge:
    """Starts on demand, counts the pending questions that need it, stops when none is left."""

    def __init__(self, *, port: int = 0, linger_seconds: float = 2.0) -> None:
        self.port = port
        """The configured port; 0 picks a free one at each start."""
        self.linger_seconds = linger_seconds
        self._installers: list[RouteInstaller] = []
        self._app: FastAPI | None = None
        self._server: uvicorn.Server | None = None
        self._serving: asyncio.Task[None] | None = None
        self._base_url: str | None = None
        self._bound_port = 0
        self._users = 0
        self._linger: asyncio.TimerHandle | None = None
        self._stopping: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()

    @property
    def base_url(self) -> str | None:
        """`http://127.0.0.1:<port>` while running, None while stopped."""
        return self._base_url

    def add_routes(self, install: RouteInstaller) -> None:
        """Let a feature add its routes. Called before the first start (at server creation); a
        later call installs into the running app too."""
        self._installers.append(install)
        if self._app is not None:
            install(self._app)

    async def acquire(self) -> str:
        """Count one more pending question, starting the bridge when needed; the base URL."""
        async with self._lock:
            self._users += 1
            if self._linger is not None:
                self._linger.cancel()
                self._linger = None
            try:
                return await self._start()
            except BaseException:
                self._users -= 1
                raise

    async def hold(self, question: PendingQuestion) -> str:
        """`acquire` for a question that may outlive the call asking it: released when it ends."""
        base_url = await self.acquire()
        question.on_finish(self._release_later)
        return base_url

    def _release_later(self, _question: PendingQuestion) -> None:
        task = asyncio.get_running_loop().create_task(self.release())
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def release(self) -> None:
        """One pending question ended; after the last, stop once `linger_seconds` pass without a
        new one (a run of questions reuses one bridge, and its port, instead of restarting)."""
        self._users = max(self._users - 1, 0)
        if self._users == 0 and self._serving is not None and self._linger is None:
            loop = asyncio.get_running_loop()
            self._linger = loop.call_later(self.linger_seconds, self._stop_when_idle)

    async def aclose(self) -> None:
        """Stop now (the MCP server is shutting down)."""
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
        async with self._lock:
            await self._stop()

    def _stop_when_idle(self) -> None:
        self._linger = None
        if self._users == 0:
            # Kept in an attribute: the loop holds tasks only weakly.
            self._stopping = asyncio.get_running_loop().create_task(self._stop_if_idle())

    async def _stop_if_idle(self) -> None:
        async with self._lock:
            if self._users == 0:
                await self._stop()

    async def _start(self) -> str:
        if self._base_url is not None and self._serving is not None and not self._serving.done():
            return self._base_url
        try:
            listener = loopback_listener(self.port)
        except OSError as error:
            raise BridgeStartError(
                f"cannot listen on {HOST}:{self.port}: {error.strerror or error}"
            ) from None
        self._bound_port = listener.getsockname()[1]
        started = asyncio.Event()
        server = _quiet_server(self._application(), started)
        serving = asyncio.get_running_loop().create_task(_serve(server, listener))
        ready = asyncio.ensure_future(started.wait())
        await asyncio.wait([ready, serving], return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if serving.done():
            serving.result()  # raises the reason
            raise BridgeStartError("stopped while starting")
        self._server, self._serving = server, serving
        self._base_url = f"http://{HOST}:{self._bound_port}"
        return self._base_url

    async def _stop(self) -> None:
        server, serving = self._server, self._serving
        self._server = self._serving = None
        self._base_url = None
        if server is None or serving is None:
            return
        server.should_exit = True
        with contextlib.suppress(BridgeStartError):
            await serving

    def _application(self) -> FastAPI:
        if self._app is None:
            from fastapi import FastAPI

            self._app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
            self._app.add_middleware(LoopbackGuard, port=lambda: self._bound_port)
            for install in self._installers:
                install(self._app)
        return self._app


def loopback_listener(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port` (0: any free port), for uvicorn to serve on.

    Binding it ourselves makes a taken port a clear `OSError` and lets clients connect as soon as
    the address is known. TCP_NODELAY is set by hand: asyncio sets it only on accepted sockets
    whose protocol is explicitly TCP, and `socket.create_server`'s is 0, so without it Nagle's
    algorithm meets the client's delayed ACK and every response after a connection's first one
    waits about 40 ms. Accepted connections inherit the option from the listener.
    """
    listener = socket.create_server((HOST, port))
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return listener


def _quiet_server(app: ASGIApp, started: asyncio.Event) -> uvicorn.Server:
    """A uvicorn server that logs nothing to stdout, leaves signals to the MCP server, and sets
    `started` once it serves."""
    import uvicorn

    class QuietServer(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn would take over SIGINT/SIGTERM while serving; they belong to the MCP server.
            yield

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            started.set()

    config = uvicorn.Config(
        app,
        log_config=None,
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )
    return QuietServer(config)


async def _serve(server: uvicorn.Server, listener: socket.socket) -> None:
    try:
        await server.serve(sockets=[listener])
    except SystemExit:
        # uvicorn exits the process when it cannot start; here that would end the MCP server.
        raise BridgeStartError("failed to start its HTTP server") from None
    finally:
        listener.close()


class LoopbackGuard:
    """ASGI middleware: every request must name this server as its `Host`; state-changing ones must
    come from its own origin (or none) with a JSON body; WebSocket handshakes from its own origin.
    The bridge and the inbox both use it; `name` is how refusals call the server."""

    def __init__(self, app: ASGIApp, port: Callable[[], int], name: str = "bridge") -> None:
        self.app = app
        self.port = port
        self.name = name

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Closing before accepting makes the server answer the handshake with 403.
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[1]})
        else:
            await _send_refusal(send, *refusal)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = _headers(scope)
        port = self.port()
        own_hosts = {f"{HOST}:{port}", f"localhost:{port}"}
        if headers.get("host", "").lower() not in own_hosts:
            return 403, f"the Host header must be this {self.name}'s own address, " + " or ".join(
                sorted(own_hosts)
            )
        origin = headers.get("origin")
        own_origins = {f"http://{host}" for host in own_hosts}
        if scope["type"] == "websocket":
            if origin not in own_origins:
                return 403, f"a WebSocket must come from a page of this {self.name}"
            return None
        if scope["method"] not in STATE_CHANGING_METHODS:
            return None
        if origin is not None and origin.lower() not in own_origins:
            return 403, "requests from other origins are refused"
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            return 415, "the body must be JSON (Content-Type: application/json)"
        return None


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}


def refusal(
    status: int, problems: Sequence[str], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The one shape of every refusal on the bridge, whatever the route: `{"problems": [...]}`,
    each problem a sentence saying what was wrong and what to do."""
    from fastapi.responses import JSONResponse

    return JSONResponse({"problems": list(problems)}, status_code=status, headers=headers)


async def _send_refusal(send: Send, status: int, reason: str) -> None:
    body = json.dumps({"problems": [reason]}).encode()
    headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
