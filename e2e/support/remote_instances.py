"""`provide-choice serve --http --redis URL` instances, as an operator starts them: each with a home
of its own, all on one Redis (a `RedisServer` of the tests' own), maybe behind one public URL."""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_servers import start_http_server
from ports import free_port
from redis_server import RedisServer

QUESTION: dict[str, Any] = {
    "title": "Which service goes first?",
    "prompt": "The release is tagged.",
    "selection_mode": "single",
    "options": [
        {"id": "api", "label": "API", "recommended": True},
        {"id": "web", "label": "Web"},
    ],
    "timeout_seconds": 120,
    "transport": "web",
}
"""The question the tests of several instances ask (a single choice: choosing sends it)."""


@dataclass(frozen=True)
class Instance:
    process: subprocess.Popen[str]
    url: str
    """Its MCP endpoint, as it printed it (under its public URL)."""
    port: int
    said: list[str] = field(default_factory=list)
    """What it printed on stderr after its address, line by line (read as it comes, so that a
    busy instance never blocks on a full pipe)."""

    @property
    def base(self) -> str:
        """Where it listens, as a proxy in front of it reaches it."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def endpoint(self) -> str:
        """Its MCP endpoint where it listens (`url`, under a public URL, is the proxy's)."""
        return f"{self.base}/mcp"

    def page(self, address: str) -> str:
        """The page at `address` (any instance's, or the public one), served by this instance."""
        return self.base + address[address.index("/choice/") :]

    def kill(self) -> None:
        """As `kill -9` does: no cleaning up."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


@contextmanager
def instance(redis: RedisServer | None, home: Path, *options: str) -> Iterator[Instance]:
    """`provide-choice serve --no-browser --redis URL OPTIONS --http PORT` with `home` as its own
    (without `redis`: an instance alone, its questions in its memory), stopped (SIGTERM) at the
    end unless it is gone already."""
    home.mkdir(mode=0o700, parents=True, exist_ok=True)  # private, as the server wants it
    port = free_port()
    shared = [] if redis is None else ["--redis", redis.url]
    arguments = ["serve", "--no-browser", *shared, *options]
    process, url = start_http_server(arguments, home, port=port)
    started = Instance(process, url, port)
    assert process.stderr is not None
    reader = threading.Thread(target=started.said.extend, args=(process.stderr,), daemon=True)
    reader.start()
    try:
        yield started
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
