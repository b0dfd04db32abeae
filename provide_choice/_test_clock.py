"""A clock the tests move forward: how a test makes a question's deadline pass without waiting for it.

For tests only, and off unless a test turns it on. `PROVIDE_CHOICE_TEST_CLOCK` names a file; unset, as
it is everywhere but in this project's tests, `follow` returns at once: nothing here reads a file or
sets a timer, and a question's time is the real time.

Set, the file says how many seconds the test has moved the clock forward so far (`move_forward`
writes it; no file says 0). Whatever counts down a question's time in a process follows it while it
does: a question asked in this process (`_registry.skip`), a terminal's screen, the hand-off
terminal's copy of the deadline. Each is told, within `POLL_SECONDS`, how far the clock moved since
it began to follow, and moves by as much; a question moves its start and its deadline that much
earlier through the same step a timeout override takes (`move_deadline`), so its page, its terminal,
its reminder and a shared store follow as they would, and at the deadline it times out through its own
timer, as a question left that long does. Nothing else runs on this clock: a call's `--max-wait`,
progress heartbeats and network timeouts keep the real one, and a question asked after the clock
moved starts from there.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

VARIABLE = "PROVIDE_CHOICE_TEST_CLOCK"
POLL_SECONDS = 0.05
"""How often a process that follows the clock reads the file: a move shows this soon."""

Skip = Callable[[float], object]
"""Told how many seconds the clock just moved forward."""


def follow(skip: Skip) -> Callable[[], None]:
    """Call `skip(seconds)` whenever a test moves the clock forward, from now until the function
    returned is called. Without `PROVIDE_CHOICE_TEST_CLOCK`, never. The file is read in the event
    loop this is called from, or, called outside one, in the one the next follower starts from."""
    path = os.environ.get(VARIABLE)
    if not path:
        return _nothing
    return _clock(Path(path)).follow(skip)


def move_forward(path: Path, seconds: float) -> None:
    """The test's side: move the clock of every process following `path` `seconds` forward (written
    whole, by a rename, so a process never reads half of it)."""
    moved = _read(path) + seconds
    written = path.with_name(f"{path.name}.{os.getpid()}.new")
    written.write_text(repr(moved))
    written.replace(path)


class _Clock:
    """The clock of one file, as this process follows it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._followers: list[_Follower] = []
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def follow(self, skip: Skip) -> Callable[[], None]:
        follower = _Follower(skip, _read(self.path))
        self._followers.append(follower)
        self._read_soon()

        def unfollow() -> None:
            if follower in self._followers:
                self._followers.remove(follower)

        return unfollow

    def _read_soon(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # the next follower in an event loop starts the reading
        if self._timer is None or self._loop is not loop:
            self._loop = loop
            self._timer = loop.call_later(POLL_SECONDS, self._read_now)

    def _read_now(self) -> None:
        self._timer = None
        if not self._followers:
            return
        self._read_soon()
        moved = _read(self.path)
        for follower in list(self._followers):
            if moved > follower.moved:
                seconds, follower.moved = moved - follower.moved, moved
                follower.skip(seconds)


class _Follower:
    def __init__(self, skip: Skip, moved: float) -> None:
        self.skip = skip
        self.moved = moved
        """How far the clock had moved when this follower last heard (or began to follow)."""


_clocks: dict[Path, _Clock] = {}


def _clock(path: Path) -> _Clock:
    return _clocks.setdefault(path, _Clock(path))


def _read(path: Path) -> float:
    try:
        return float(path.read_text())
    except FileNotFoundError:
        return 0.0


def _nothing() -> None:
    """Following nothing: nothing to stop."""
