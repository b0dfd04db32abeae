"""A free TCP port on 127.0.0.1, for a server a test starts (chat, Redis, model).

The port is free when it is picked, not when the server binds it: the tests run in several
processes at once (pytest-xdist), and another one may take it in between. A server started on a
picked port is started again on another when its output says it lost that race (`lost_port`).
"""

from __future__ import annotations

import socket

ATTEMPTS = 3
"""How many picked ports a test server is started on before its failure is reported."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ExitedEarly(RuntimeError):
    """A server a test started ended before it served (its output says why; see `lost_port`)."""


def lost_port(output: str) -> bool:
    """Whether a server's output says another process took its port: choices-chat's own line
    ("port N on 127.0.0.1 is in use"), uvicorn's, redis-server's and nginx's (EADDRINUSE)."""
    return "is in use" in output or "address already in use" in output.lower()
