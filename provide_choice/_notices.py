"""What the server says to the person while it runs, on one path: a push alert not delivered, Redis
away or back, a plug-in's warning, the history unwritable.

Such a line goes to stderr, which is usually the terminal, and a terminal may be drawing a question
at that moment (`provide-choice ask`, `serve --http` in a window): a line written straight across a
live screen garbles it (it overwrote a line of the settings screen and left `4 56` under the
countdown). So every line goes through `say` (or `warn`): while no question is drawn it is written
at once; while one is (`held`, which the terminal's session holds), it is kept, shown in the
screen's status line (`held_lines`, drawn by the screen under its own lines, which stay as they
are), and written in full on stderr once the screen is gone. Lines said from another thread (the
history's writer) are safe: the hold is behind a lock, and the redraw it asks for is the screen's
thread-safe one.

Python's `logging` lines of a library that has no handler of its own (the last resort: uvicorn's
warnings, redis-py's) take the same path while a screen is drawn.

It imports nothing of the project: every floor may say something.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PREFIX = "provide-choice: "
WARNING = PREFIX + "warning: "


class _Notices:
    """The lines of this process, and whether a screen holds them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders = 0
        self._held: list[str] = []
        self._redraws: list[Callable[[], None]] = []
        self._last_resort: logging.Handler | None = None

    def say(self, line: str) -> None:
        with self._lock:
            if not self._holders:
                print(line, file=sys.stderr, flush=True)
                return
            self._held.append(line)
            redraws = list(self._redraws)
        for redraw in redraws:
            redraw()

    def held_lines(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._held)

    @contextmanager
    def held(self, redraw: Callable[[], None]) -> Iterator[None]:
        with self._lock:
            self._holders += 1
            self._redraws.append(redraw)
            if self._holders == 1:
                self._last_resort, logging.lastResort = logging.lastResort, _SaidHandler()
        try:
            yield
        finally:
            with self._lock:
                self._holders -= 1
                self._redraws.remove(redraw)
                released = [] if self._holders else self._held
                if not self._holders:
                    self._held = []
                    logging.lastResort = self._last_resort
            for line in released:
                print(line, file=sys.stderr, flush=True)


class _SaidHandler(logging.Handler):
    """The last resort of `logging` while a screen holds the lines: its warnings are said."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            say(self.format(record))
        except Exception:  # as logging's own handlers do: a line lost, never a failure
            self.handleError(record)


_NOTICES = _Notices()


def say(line: str) -> None:
    """Say `line` (written whole: "provide-choice: ..." at its start) on stderr: now, or, while a
    question is drawn in a terminal, in its status line and on stderr once the screen is gone."""
    _NOTICES.say(line)


def warn(message: str) -> None:
    """Say "provide-choice: warning: `message`", as `say` does."""
    say(WARNING + message)


def held_lines() -> tuple[str, ...]:
    """What was said since the screen holding the lines appeared (its status line shows them)."""
    return _NOTICES.held_lines()


@contextmanager
def held(redraw: Callable[[], None]) -> Iterator[None]:
    """Within, lines said are kept (and `redraw` called, from any thread, to show them in the
    screen's status line); written on stderr, in order, as the outermost hold ends."""
    with _NOTICES.held(redraw):
        yield
