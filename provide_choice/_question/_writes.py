"""A question's writes to a shared store: made in the order they were asked for, each tried again
until it lands, so that a store away for a while (Redis restarting) loses nothing that was said
meanwhile: a draft, a kept answer, an answer given in a terminal, a deadline that passed.

Whoever must know that the writes landed (a page's answer, a new question before it is shown)
awaits `landed`, which gives up after a few seconds with `StoreUnavailable`: the person hears at once
that nothing was sent, rather than after the store comes back.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable

from provide_choice._notices import PREFIX, say
from provide_choice._question._store import StoreUnavailable

RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0)
"""How long a write waits before it is tried again, one step further each time (the last step
repeats)."""
LANDED_SECONDS = 5.0
"""How long `landed` waits for the writes asked for so far: a store that takes longer is away."""

Write = Callable[[], Awaitable[object]]


class Writes:
    """One question's writes, in order. `until()` is the wall-clock time after which the
    question's keys expire anyway, and an unlanded write is given up."""

    def __init__(self, until: Callable[[], float], problem: Callable[[], str | None]) -> None:
        self.until = until
        self.problem = problem
        self._last: asyncio.Task[None] | None = None
        self._waiting: set[asyncio.Task[None]] = set()

    def put(self, write: Write) -> None:
        """Make `write` after every write put before it."""
        task = asyncio.get_running_loop().create_task(self._after(self._last, write))
        self._waiting.add(task)
        task.add_done_callback(self._waiting.discard)
        self._last = task

    async def landed(self, seconds: float = LANDED_SECONDS) -> None:
        """Return once every write put so far has landed; `StoreUnavailable` after `seconds`."""
        if self._last is None:
            return
        done, _ = await asyncio.wait({self._last}, timeout=seconds)
        if not done:
            raise StoreUnavailable(self.problem() or "the question store does not answer")

    @property
    def busy(self) -> bool:
        """Whether a write put has not landed yet."""
        return self._last is not None and not self._last.done()

    def cancel(self) -> None:
        """Give up every write not landed yet (a question that could not be kept at all)."""
        for task in list(self._waiting):
            task.cancel()

    async def _after(self, previous: asyncio.Task[None] | None, write: Write) -> None:
        if previous is not None:
            await asyncio.wait({previous})  # it never raises: a write gives up by itself
        until = self.until()
        for attempt in itertools.count():
            try:
                await write()
                return
            except StoreUnavailable:
                pause = RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]
                if time.time() + pause > until:
                    return  # its keys have expired by then: there is nothing left to write to
                await asyncio.sleep(pause)
            except Exception as error:  # a bug, not the store being away: say so, go on
                say(f"{PREFIX}a write to the question store failed: {error!r}")
                return
