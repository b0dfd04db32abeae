"""Waiting for something that happens a little later (a bridge stopping), without a fixed sleep.

A fixed sleep that is long enough on a quiet machine is too short on a busy CI runner.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

POLL_SECONDS = 0.02


async def until(condition: Callable[[], bool], message: str, seconds: float = 5.0) -> None:
    """Return as soon as `condition()` holds; fail with `message` after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, f"{message} (waited {seconds} s)"
        await asyncio.sleep(POLL_SECONDS)


def nothing_listens(url: str) -> bool:
    """Whether a connection to `url`'s host and port is refused (the server there has stopped)."""
    address = urlsplit(url)
    try:
        socket.create_connection((address.hostname, address.port), timeout=1).close()
    except ConnectionRefusedError:
        return True
    return False
