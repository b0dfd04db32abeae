"""A real `redis-server` of the tests' own: a free port on 127.0.0.1, a temporary directory, the
append-only file on (so a stop and a start lose nothing written), and never the system's server.

The binary is `$REDIS_SERVER_PATH`, else `redis-server` on the PATH, else Debian's
/usr/bin/redis-server (`make test` installs it where missing, see scripts/find-redis-server); a
test that needs one and finds none is skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from ports import ATTEMPTS, ExitedEarly, free_port, lost_port

NEEDS_REDIS_SERVER = (
    "needs redis-server (Debian's redis-server package; `make test` installs it), "
    "or REDIS_SERVER_PATH set to one"
)
NEEDS_REDIS_EXTRA = "needs the redis extra (redis-py): pip install -e '.[test,redis]'"


def redis_server_path() -> str | None:
    configured = os.environ.get("REDIS_SERVER_PATH")
    if configured and os.access(configured, os.X_OK):
        return configured
    found = shutil.which("redis-server")
    if found:
        return found
    return "/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None


class RedisServer:
    """`start()` serves (again, on the same port and data after a `stop()`); `url` is its address."""

    def __init__(self, directory: Path, executable: str) -> None:
        self.directory = directory
        self.executable = executable
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Serve; on another free port when another process took this one before its first start
        (see `ports`); a start again stays on its port, where the clients look."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return self._start()
            except ExitedEarly:
                if self.started or attempt == ATTEMPTS or not lost_port(self.log()):
                    raise
                self.port = free_port()
        raise AssertionError("unreachable")

    def _start(self) -> RedisServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        log = (self.directory / "redis.log").open("ab")
        options = {"port": self.port, "bind": "127.0.0.1", "dir": self.directory}
        options |= {"appendonly": "yes", "save": "", "daemonize": "no"}
        arguments = [item for name, value in options.items() for item in (f"--{name}", str(value))]
        self.process = subprocess.Popen(
            [self.executable, *arguments], stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ExitedEarly(f"redis-server exited:\n{self.log()}")
            if self._answers_ping():
                self.started = True
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer within 10 s:\n{self.log()}")

    def stop(self) -> None:
        """A clean shutdown (SIGTERM): what was written is in the append-only file."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def log(self) -> str:
        return (self.directory / "redis.log").read_text(errors="replace")

    def _answers_ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exception: object) -> None:
        self.stop()


@contextmanager
def own_redis_server(directory: Path) -> Iterator[RedisServer]:
    """A `RedisServer` in `directory` for the tests that need one, which are skipped without it."""
    executable = redis_server_path()
    if executable is None:
        pytest.skip(NEEDS_REDIS_SERVER)
    with RedisServer(directory, executable) as server:
        yield server
