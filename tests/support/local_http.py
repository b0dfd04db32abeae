"""The HTTP side of a stand-in API (Telegram's Bot API, Slack's Web API) on 127.0.0.1: served from a
thread of its own, each request handed to the stand-in, and each connection kept so that `close`
can cut them all, as an API out of reach does (the apps keep theirs alive)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Serve = Callable[[BaseHTTPRequestHandler], None]


class LocalHTTP:
    """Answers every GET and POST with `serve(request)` while open."""

    def __init__(self, serve: Serve) -> None:
        self._serve = serve
        self._server: ThreadingHTTPServer | None = None
        self._connections: set[socket.socket] = set()

    @property
    def is_open(self) -> bool:
        return self._server is not None

    def open(self, port: int = 0) -> int:
        """Listen on `port` (0: any free one) and return the port."""
        connections, serve = self._connections, self._serve

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: without this, Nagle's algorithm holds the
            # body back for the client's delayed ACK (40 ms a request on a kept-alive connection).
            disable_nagle_algorithm = True

            def setup(self) -> None:
                super().setup()
                connections.add(self.connection)

            def finish(self) -> None:
                connections.discard(self.connection)
                super().finish()

            def do_POST(self) -> None:
                serve(self)

            def do_GET(self) -> None:
                serve(self)

            def log_message(self, format: str, *args: object) -> None:
                pass  # the test's output stays its own

        ThreadingHTTPServer.allow_reuse_address = True  # the same port again, after `close`
        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        serving = partial(self._server.serve_forever, poll_interval=0.05)  # stops at once
        threading.Thread(target=serving, daemon=True).start()
        return self._server.server_address[1]

    def close(self) -> None:
        """Stop listening (a connection is refused from now on) and cut every open connection."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        for connection in list(self._connections):
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
