"""Run an action at most once per interval, however often it is asked for, and never drop the last ask.

A model streams a reply in hundreds or thousands of small chunks. Rendering the message for each of
them costs the server a markdown render per chunk and the browser a DOM update per chunk; rendering
at most every `interval` seconds costs the same whether the reply came in 50 chunks or in 5,000.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Throttle:
    """`request()` runs `action` at once when it last ran `interval` seconds ago or more; otherwise it
    schedules one run for when the interval is over, which then sees everything asked for meanwhile."""

    def __init__(self, action: Callable[[], None], interval: float) -> None:
        self.action = action
        self.interval = interval
        self._last_run = -float("inf")
        self._scheduled: asyncio.TimerHandle | None = None

    def request(self) -> None:
        if self._scheduled is not None:
            return
        wait = self._last_run + self.interval - time.monotonic()
        if wait <= 0:
            self._run()
        else:
            self._scheduled = asyncio.get_running_loop().call_later(wait, self._run)

    def cancel(self) -> None:
        """Drop a scheduled run (the caller renders the final state itself)."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None

    def _run(self) -> None:
        self._scheduled = None
        self._last_run = time.monotonic()
        self.action()
