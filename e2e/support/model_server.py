"""A stand-in for an OpenAI-compatible model server, for tests that run the chat against real HTTP.

It answers `POST /v1/chat/completions` with the replies a test queued, in the documented Chat
Completions streaming format (`stream: true`): server-sent `chat.completion.chunk` events, a tool call's
arguments in several pieces, then `data: [DONE]`. A reply may be an HTTP error instead. It keeps every
request body it received, so a test can check what the model was given. Standard library only, in a
thread, bound to 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHUNK_DELAY = 0.02  # seconds between two events, so that the reply really streams


@dataclass
class Reply:
    """One model response: text pieces, then optionally a call of `tool` (by default
    `present_choices`) with `arguments`.

    `status` other than 200 answers with that HTTP error (and `headers`) instead. A test holding
    `gate` keeps the call's arguments half sent until it sets the event.
    """

    text: list[str] = field(default_factory=list)
    arguments: dict[str, Any] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    gate: threading.Event | None = None
    call_id: str = "call_choices_1"
    tool: str = "present_choices"


class ModelServer:
    """Serves queued `Reply`s in order; `requests` holds the JSON body of every request received."""

    def __init__(
        self, port: int = 0, *, chunk_delay: float = CHUNK_DELAY, default: Reply | None = None
    ) -> None:
        self.chunk_delay = chunk_delay  # seconds between two events of a reply
        self.default = default or Reply(text=["(no reply queued)"])  # when none is queued
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self._port = port
        self._server: _Server | None = None

    @property
    def port(self) -> int:
        """The port it listens on, or listened on before `stop` (and will again on `start`)."""
        assert self._port, "the server has never run"
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ModelServer:
        """Listen (again: on the same port once it has had one) and serve in a thread."""
        self._server = _Server(("127.0.0.1", self._port), _handler(self))
        self._server.daemon_threads = True
        self._port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop listening: a request now finds its connection refused."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exception: object) -> None:
        self.stop()

    def next_reply(self) -> Reply:
        return self.replies.pop(0) if self.replies else self.default


class _Server(ThreadingHTTPServer):
    """Room for many requests arriving at once: the standard library's listen backlog of 5 would
    make the sixth wait for a SYN retry (a second or more), as no real model server does."""

    request_queue_size = 128


def _handler(model_server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model_server.requests.append(body)
            reply = model_server.next_reply()
            if reply.status != 200:
                self._send_error(reply)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            for event in _events(reply, body.get("model", "model")):
                self.wfile.write(f"data: {event}\n\n".encode())
                self.wfile.flush()
                time.sleep(model_server.chunk_delay)
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def _send_error(self, reply: Reply) -> None:
            message = {401: "Incorrect API key provided.", 404: "The model does not exist."}
            error = {"message": message.get(reply.status, "Error"), "type": "invalid_request_error"}
            payload = json.dumps({"error": error}).encode()
            self.send_response(reply.status)
            for name, value in {"Content-Type": "application/json", **reply.headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep the test output clean

    return Handler


def _events(reply: Reply, model: str) -> Iterator[str]:
    """The reply as `chat.completion.chunk` events; the gate, if any, holds the call's second half."""

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
        event = {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": model,
            "choices": [choice],
        }
        return json.dumps(event)

    yield chunk({"role": "assistant", "content": ""})
    for piece in reply.text:
        yield chunk({"content": piece})
    if reply.arguments is not None:
        function = {"name": reply.tool, "arguments": ""}
        call = {"index": 0, "id": reply.call_id, "type": "function", "function": function}
        yield chunk({"tool_calls": [call]})
        arguments = json.dumps(reply.arguments)
        half = len(arguments) // 2
        for index, piece in enumerate([arguments[:half], arguments[half:]]):
            if index and reply.gate is not None:
                reply.gate.wait(timeout=30)
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
    yield chunk({}, "tool_calls" if reply.arguments is not None else "stop")
