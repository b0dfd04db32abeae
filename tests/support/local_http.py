"""The HTTP side of a stand-in API (Telegram's Bot API, Slack's Web API) on 127.0.0.1: served from a
thread of its own, each request handed to the stand-in, and each connection kept so that `close`
can cut them all, as an API out of reach does (the apps keep theirs alive).

An answer being written when `close` comes is written whole first: a test that saw a request
arrive (the stand-in records it before it answers) and then takes the API away means the outage
to come after that answer, not in the middle of it (where the bot would never learn the id of a
message the stand-in holds)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Serve = Callable[[BaseHTTPRequestHandler], None]
ANSWERING_SECONDS = 5.0
"""How long `close` lets the answers being written finish before it cuts the connections."""


class LocalHTTP:
    """Answers every GET and POST with `serve(request)` while open."""

    def __init__(self, serve: Serve) -> None:
        self._serve = serve
        self._server: ThreadingHTTPServer | None = None
        self._connections: set[socket.socket] = set()
        self._answering = 0
        self._answered = threading.Condition()

    @property
    def is_open(self) -> bool:
        return self._server is not None

    def open(self, port: int = 0) -> int:
        """Listen on `port` (0: any free one) and return the port."""
        connections, serve = self._connections, self._answer

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

    def _answer(self, request: BaseHTTPRequestHandler) -> None:
        with self._answered:
            self._answering += 1
        try:
            self._serve(request)
        finally:
            with self._answered:
                self._answering -= 1
                self._answered.notify_all()

    def close(self, wake: Callable[[], None] | None = None) -> None:
        """Stop listening (a connection is refused from now on), let the answers being written
        finish, then cut every open connection. `wake`, called once `is_open` is false, tells the
        requests waiting in the stand-in (a long poll) to answer now."""
        server, self._server = self._server, None
        if server is None:
            return
        if wake is not None:
            wake()
        server.shutdown()
        with self._answered:
            self._answered.wait_for(lambda: self._answering == 0, ANSWERING_SECONDS)
        server.server_close()
        for connection in list(self._connections):
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
