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
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

from present_choices._translation import Translation

if TYPE_CHECKING:
    from asyncio import AbstractEventLoop

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
REDELIVERY_SECONDS = 0.01
"""How long after a stop was lost (`stop_on_signals`) its signal comes again."""


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


def _stop_alone(group: BaseExceptionGroup[BaseException]) -> Stopped | None:
    """The `Stopped` that `group` carries with nothing beside it (however deeply nested), else
    None."""
    stops, rest = group.split(Stopped)
    if stops is None or rest is not None:
        return None
    found: BaseException = stops
    while isinstance(found, BaseExceptionGroup):
        found = found.exceptions[0]
    return found if isinstance(found, Stopped) else None


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
    first one set off.

    Python runs a signal's handler between two instructions of the main thread, which may be
    where an exception cannot rise: in a weakref's callback (the import system's own, while a
    module loads) or a `__del__`, where Python reports it as "ignored" and goes on; in a callback
    of an asyncio loop, whose exception handler logs it and goes on. The stop would be lost with
    the signal. So a `Stopped` reported so is no stop yet: the signal is delivered again
    `REDELIVERY_SECONDS` later, when the main thread is elsewhere (a regression: `provide-choice
    inbox` stopped while it loaded uvicorn served on).

    A stop raised inside a task group (anyio's) leaves the block as `Stopped`, not in the
    `BaseExceptionGroup` the group wraps it in (a regression: `provide-choice serve` stopped while
    it started printed the group's traceback)."""
    stopping = False
    again: threading.Timer | None = None

    def stop(number: int) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            _report_lost_stops_of_the_running_loop(deliver_again)
            raise Stopped(number)

    def deliver_again(lost: Stopped) -> None:
        nonlocal stopping, again
        stopping = False
        again = threading.Timer(REDELIVERY_SECONDS, _signal_main_thread, (lost,))
        again.daemon = True
        again.start()

    def ignored(unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, Stopped):
            deliver_again(unraisable.exc_value)
        else:
            previous_hook(unraisable)

    previous_hook = sys.unraisablehook
    sys.unraisablehook = ignored
    try:
        with signals_handled(stop):
            yield
    except BaseExceptionGroup as group:
        # An anyio task group raises what its tasks raised wrapped, where `except Stopped`
        # would miss it: a stop comes out as itself.
        alone = _stop_alone(group)
        if alone is None:
            raise
        raise alone from None
    finally:
        sys.unraisablehook = previous_hook
        if again is not None:
            again.cancel()  # the command ends anyway: no signal after its handler is gone


def _report_lost_stops_of_the_running_loop(lost: Callable[[Stopped], None]) -> None:
    """Where an asyncio loop runs in this thread, a `Stopped` its exception handler gets (raised
    in one of its callbacks) goes to `lost`; anything else to the handler it had."""
    asyncio = sys.modules.get("asyncio")
    if asyncio is None:  # not loaded: no loop runs
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    previous = loop.get_exception_handler()

    def handle(loop: AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), Stopped):
            lost(context["exception"])
        elif previous is None:
            loop.default_exception_handler(context)
        else:
            previous(loop, context)

    loop.set_exception_handler(handle)


def _signal_main_thread(stop: Stopped) -> None:
    """Send `stop`'s signal again, to the main thread: it interrupts a wait there (a signal that
    went to another thread would run its handler only once the main thread woke by itself)."""
    main = threading.main_thread().ident
    if hasattr(signal, "pthread_kill") and main is not None:
        signal.pthread_kill(main, stop.number)
    else:  # Windows: no threads to aim at; os.kill would end the process at once
        signal.raise_signal(stop.number)
