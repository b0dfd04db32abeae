"""The long-running commands started as a person starts them, each in a process of its own: the chat,
the MCP server over HTTP and the inbox, with a data directory of the test's own."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcp_servers import TOKEN

SCRIPTS = Path(sys.executable).parent


@dataclass(frozen=True)
class LongRunning:
    """A command, the line it prints on stderr once it serves, and the name its lines start with."""

    arguments: tuple[str, ...]
    ready: str
    prefix: str
    variables: Mapping[str, str] = field(default_factory=dict)
    """Set in its environment, always."""

    def start(self, home: Path) -> tuple[subprocess.Popen[str], str]:
        """Start it with `home` as its data directory; the process and what it printed up to and
        including its ready line."""
        process = self.launch(home)
        return process, self.ready_line(process)

    def launch(self, home: Path, variables: dict[str, str] | None = None) -> subprocess.Popen[str]:
        """Start it with `home` as its data directory (and `variables` set), without waiting (to
        start several at once); `ready_line` waits."""
        command = shutil.which(self.arguments[0], path=str(SCRIPTS))
        assert command is not None, f"{self.arguments[0]} is not installed next to this Python"
        return subprocess.Popen(
            [command, *self.arguments[1:]],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment(home) | dict(self.variables) | (variables or {}),
            text=True,
        )

    def ready_line(self, process: subprocess.Popen[str]) -> str:
        """What `process` printed on stderr up to and including its ready line."""
        assert process.stderr is not None
        printed = ""
        while not re.search(self.ready, printed):
            line = process.stderr.readline()
            if not line:
                process.wait(timeout=10)
                raise AssertionError(f"{self.arguments} ended before serving:\n{printed}")
            printed += line
        _listening(printed.splitlines()[-1])
        return printed


def _listening(ready_line: str) -> None:
    """The address in `ready_line` takes connections at once: a command says where it is only
    once it is there (a regression: the chat said it just before NiceGUI bound its port, and under
    load a test, as a quick person would, found it refused)."""
    address = re.search(r"https?://([^/\s:]+|\[[^\]]+\]):(\d+)", ready_line)
    if address is None:
        return
    host, port = address.group(1).strip("[]"), int(address.group(2))
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as error:
        raise AssertionError(
            f"{ready_line!r}, but nothing takes connections there: {error}"
        ) from None


CHAT = LongRunning(("choices-chat", "--port", "0", "--no-show"), "the chat is at", "choices-chat")
SERVER = LongRunning(
    ("provide-choice", "serve", "--http", "0", "--no-browser"),
    "MCP server at",
    "provide-choice",
    {"PROVIDE_CHOICE_TOKEN": TOKEN},
)
"""With the tests' token, as its clients know it (without one, it makes one and says so)."""
INBOX = LongRunning(("provide-choice", "inbox", "--port", "0"), "inbox at", "provide-choice inbox")
"""The inbox opens its page through its opener file, here with a browser command that does nothing
(`BROWSER=true`)."""


def environment(home: Path) -> dict[str, str]:
    """The test's environment with `home` as the data directory, a browser that opens nothing, and
    none of what would change what the commands do: pytest's variable (NiceGUI would believe it runs
    in a test), make's (the chat's hints would speak of `make demo`), CI (the server would answer
    every question itself, unattended) and a storage path of NiceGUI's own."""
    hidden = ("PYTEST_CURRENT_TEST", "MAKELEVEL", "MAKEFLAGS", "CI", "NICEGUI_STORAGE_PATH")
    variables = {key: value for key, value in os.environ.items() if key not in hidden}
    return variables | {"AGENT_CHOICES_HOME": str(home), "BROWSER": "true"}


def wait_for(condition: Callable[[], bool], message: str, seconds: float = 10.0) -> None:
    """Return as soon as `condition()` holds (checked every 20 ms); fail with `message` after
    `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{message} (waited {seconds} s)"
        time.sleep(0.02)
