"""The bridge: one local HTTP server per MCP server process, for questions answered elsewhere.

The terminal hand-off (`/terminal/...`) and the page (`/choice/...`) add their routes to the
same bridge. It starts when the first pending question needs it and stops a little after the last
one ends (and when the MCP server stops), so an idle MCP server holds no listening port. It runs as a
task in the MCP server's own event loop; uvicorn and Starlette are imported only when it first starts.
`serve --http` has a port anyway: there the same routes are served on it (`ServedBridge`), under the
server's public URL.

It listens on 127.0.0.1 only, and a middleware guards every route (`_site.HostGuard`), because any web page the person
visits can send requests to a loopback port: a foreign `Host` is a DNS-rebinding attempt (403), a
state-changing request from a foreign `Origin` is a cross-site request (403), and requiring a JSON
body on those keeps plain HTML forms (which cannot send JSON without a CORS preflight) out (415).
Nothing here writes to stdout, which carries the MCP protocol over stdio.

Routes and refusals, the same for every feature on the bridge:

- A feature declares its routes in a `_routes` module beside its transport, as one function
  `install(app, *state)`, and adds them with `bridge.add_routes(lazy_routes(module, *state))`
  (`provide_choice._transports._terminal_handoff._routes`, `provide_choice._transports._web._routes`).
- A request body is read with `read_json` (at most `BODY_LIMIT` bytes, UTF-8 JSON, no lone
  surrogates), and every refusal, from a route or from the guard, is `refusal(status, problems)`:
  the body `{"problems": ["what was wrong and what to do", ...]}`, whatever the route. These, the
  guard and the pages' headers are `_local_http`'s, shared with the inbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from provide_choice._bridge._local_http import listening_socket, web_app
from provide_choice._bridge._site import HOST, HostGuard, PublicUrl, Site, loopback_site
from provide_choice._question import TransportError

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.types import ASGIApp

    from provide_choice._question import PendingQuestion

GRACEFUL_SHUTDOWN_SECONDS = 1

RouteInstaller = Callable[["Starlette"], None]

SERVING = (
    "starlette.applications",
    "starlette.routing",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.lifespan.off",
)
"""What the bridge serves with, as `warm` imports it: the app, and the protocols uvicorn picks."""


@dataclass(frozen=True)
class LazyRoutes:
    """A feature's routes, in a `_routes` module that has `install(app, *state)`: imported when
    the bridge first starts (or is warmed), so a server that never uses the feature never loads
    its routes."""

    module: str
    state: tuple[object, ...]

    def __call__(self, app: Starlette) -> None:
        self.load().install(app, *self.state)

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


def lazy_routes(module: str, *state: object) -> LazyRoutes:
    """The one way a feature adds its routes: `module` (a `_routes` module beside its transport)
    has `install(app, *state)`."""
    return LazyRoutes(module, state)


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
        self._app: Starlette | None = None
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

    @property
    def local(self) -> bool:
        """Whether its pages are seen on this machine only (their links may lead to its inbox)."""
        return True

    def site(self) -> Site:
        """The addresses the bridge answers to (its guard refuses every other)."""
        return loopback_site(self._bound_port)

    def warm(self) -> None:
        """Import what the bridge serves with and every feature's routes, without starting it:
        its first start then only listens (`Warms`; safe in a worker thread)."""
        for module in SERVING:
            importlib.import_module(module)
        for install in list(self._installers):
            if isinstance(install, LazyRoutes):
                install.load()

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
            listener = listening_socket(self.port)
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

    def _application(self) -> Starlette:
        if self._app is None:
            self._app = web_app()
            self._app.add_middleware(HostGuard, site=self.site)
            for install in self._installers:
                install(self._app)
        return self._app


class ServedBridge(Bridge):
    """The bridge's routes served by `provide-choice serve --http` itself, on its port and under
    its public URL (`application()`, which the server mounts beside `/mcp`): always on, since the
    server listens anyway, so nothing starts or stops per question, and behind a proxy every
    instance serves every page at the one address the person was given."""

    def __init__(self, public_url: PublicUrl, site: Site) -> None:
        super().__init__()
        self._base_url = public_url.base
        self._public_url = public_url
        self._site = site

    @property
    def local(self) -> bool:
        return self._public_url.loopback

    def site(self) -> Site:
        return self._site

    async def acquire(self) -> str:
        return self._base_url or ""

    async def hold(self, question: PendingQuestion) -> str:
        return await self.acquire()

    def application(self) -> Starlette:
        """The routes every feature added, behind the guard, for the server to mount."""
        return self._application()


def _quiet_server(app: ASGIApp, started: asyncio.Event) -> uvicorn.Server:
    """A uvicorn server that logs nothing to stdout, leaves signals to the MCP server, and sets
    `started` once it serves."""
    # Deferred for start-up time: loaded only when this runs.
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
