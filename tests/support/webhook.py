"""A JSON webhook on 127.0.0.1 that records what apprise posts to it (`json://` addresses), and
one that takes connections and never answers: the far ends of push alerts in the tests."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Webhook:
    """Records every JSON body posted to it, in order (`received`)."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        received = self.received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                received.append(json.loads(self.rfile.read(length)))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass  # the test's output stays its own

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"json://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def webhook() -> Iterator[Webhook]:
    hook = Webhook()
    try:
        yield hook
    finally:
        hook.close()


@contextmanager
def silent_address() -> Iterator[str]:
    """A `json://` address whose server takes the connection and never says a word."""
    listener = socket.create_server(("127.0.0.1", 0))
    taken: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                connection, _address = listener.accept()
            except OSError:
                return
            taken.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"json://127.0.0.1:{listener.getsockname()[1]}/hook"
    finally:
        listener.close()
        for connection in taken:
            connection.close()


def refused_address() -> str:
    """A `json://` address where nothing listens: its connection is refused at once."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    return f"json://127.0.0.1:{port}/hook"
