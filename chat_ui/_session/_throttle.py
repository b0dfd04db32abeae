"""Run an action at most once per interval, however often it is asked for, and never drop the last ask.

A model streams a reply in hundreds or thousands of small chunks. Rendering the message for each of
them costs the server a markdown render per chunk and the browser a DOM update per chunk; rendering
at most every `interval` seconds costs the same whether the reply came in 50 chunks or in 5,000. A
render also takes longer as the message grows (markdown-it needs about 40 ms for 20 KB), so the pause
after a run is at least `load_factor` times what the run took: however long the reply, rendering it
takes at most 1 / (1 + `load_factor`) of the server's time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


class Throttle:
    """`request()` runs `action` at once when the pause after its last run is over; otherwise it
    schedules one run for the end of the pause, which then sees everything asked for meanwhile."""

    def __init__(
        self, action: Callable[[], None], interval: float, *, load_factor: float = 4.0
    ) -> None:
        self.action = action
        self.interval = interval
        self.load_factor = load_factor
        self._next_run = -float("inf")
        self._scheduled: asyncio.TimerHandle | None = None

    def request(self) -> None:
        if self._scheduled is not None:
            return
        wait = self._next_run - time.monotonic()
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
        start = time.monotonic()
        self.action()
        end = time.monotonic()
        self._next_run = start + max(self.interval, (end - start) * (1 + self.load_factor))
