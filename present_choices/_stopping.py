"""Stopping a long-running command on request: Ctrl-C (SIGINT) or SIGTERM.

A stop the person asked for is no failure: the command cleans up as it would when it ends (files it
wrote removed, queued writes done), says so in one line and exits 0, never with a traceback.

uvicorn (under NiceGUI, the MCP server over HTTP and the inbox) takes the two signals over while it
serves, shuts down gracefully on the first, then restores the handlers it found and raises the
signal again. `stop_on_signals` installs the handler it finds then: it raises `Stopped` in the
main thread, which unwinds the command through its `finally` blocks to the one place that prints
the line. A signal that comes before uvicorn serves (while it starts) does the same.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from present_choices._translation import Translation

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopped(BaseException):
    """A stop signal arrived. A `BaseException`, as `KeyboardInterrupt` is, so that no
    `except Exception` on the way takes it for an error."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number

    def __str__(self) -> str:
        """How the person stopped it: "Ctrl-C" or "SIGTERM"."""
        return "Ctrl-C" if self.number == signal.SIGINT else signal.Signals(self.number).name

    def said(self, translation: Translation) -> str:
        """The one line the command prints as it stops, in the person's language."""
        return translation.gettext("stopped ({how})", how=self)


@contextmanager
def signals_handled(handler: Callable[[int], None]) -> Iterator[None]:
    """Within: SIGINT and SIGTERM call `handler` with the signal's number (in the main thread,
    between two Python instructions). The handlers found are restored after."""

    def handle(number: int, _frame: FrameType | None) -> None:
        handler(number)

    previous = {number: signal.signal(number, handle) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, found in previous.items():
            signal.signal(number, found)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within: the first SIGINT or SIGTERM raises `Stopped` (uvicorn, serving, raises them again
    once it has shut down); a later one is ignored, so that it cannot cut short the clean-up the
    first one set off."""
    stopping = False

    def stop(number: int) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            raise Stopped(number)

    with signals_handled(stop):
        yield
