"""`stop_on_signals`: the first SIGINT or SIGTERM stops a long-running command, even when it comes
where Python cannot raise, and leaves the block as `Stopped` even from a task group. The cases that
send a signal run in a fresh Python: they would reach the whole test process."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from present_choices._stopping import Stopped, stop_on_signals

PROLOGUE = (
    "import signal, sys, time, weakref\n"
    "from present_choices._stopping import Stopped, stop_on_signals\n"
    "class Thing: pass\n"
    "def in_a_weakref_callback(act):\n"
    "    thing = Thing()\n"
    "    ref = weakref.ref(thing, lambda _ref: act())\n"
    "    del thing  # the callback runs now; what it raises, Python reports as ignored\n"
)


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROLOGUE + code],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_regression_a_stop_signal_handled_inside_a_weakref_callback_still_stops() -> None:
    # `provide-choice inbox` served on after a SIGTERM that came while it loaded uvicorn: the
    # handler's exception rose in the import system's weakref callback, where Python ignores it.
    result = run(
        "try:\n"
        "    with stop_on_signals():\n"
        "        in_a_weakref_callback(lambda: signal.raise_signal(signal.SIGTERM))\n"
        "        time.sleep(20)\n"
        "        print('not stopped')\n"
        "except Stopped as stop:\n"
        "    print('stopped', stop)\n"
        "print(sys.unraisablehook is sys.__unraisablehook__)\n"
    )
    assert result.stdout.splitlines() == ["stopped SIGTERM", "True"]
    assert result.stderr == ""  # no "Exception ignored" traceback for the person


def test_a_stop_signal_handled_inside_an_asyncio_callback_still_stops() -> None:
    result = run(
        "import asyncio\n"
        "def fail():\n"
        "    raise ValueError('from a callback')\n"
        "async def serve():\n"
        "    loop = asyncio.get_running_loop()\n"
        "    loop.call_soon(signal.raise_signal, signal.SIGTERM)\n"
        "    loop.call_soon(fail)\n"
        "    await asyncio.sleep(20)  # the callbacks run meanwhile; the loop logs what they raise\n"
        "    print('not stopped')\n"
        "try:\n"
        "    with stop_on_signals():\n"
        "        asyncio.run(serve())\n"
        "except Stopped as stop:\n"
        "    print('stopped', stop)\n"
    )
    assert result.stdout.splitlines() == ["stopped SIGTERM"]
    assert "ValueError: from a callback" in result.stderr  # logged by the loop, as ever
    assert "Stopped" not in result.stderr


def test_what_else_python_ignores_is_reported_as_ever_and_a_second_signal_is_ignored() -> None:
    result = run(
        "def fail():\n"
        "    raise ValueError('from a callback')\n"
        "with stop_on_signals():\n"
        "    in_a_weakref_callback(fail)\n"
        "    try:\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "    except Stopped as stop:\n"
        "        print('stopped', stop)\n"
        "    signal.raise_signal(signal.SIGTERM)  # while cleaning up: ignored\n"
        "    print('cleaned up')\n"
    )
    assert result.stdout.splitlines() == ["stopped Ctrl-C", "cleaned up"]
    assert "ValueError: from a callback" in result.stderr


TERM = Stopped(signal.SIGTERM)


IN_A_GROUP = BaseExceptionGroup("unhandled errors in a TaskGroup", [TERM])
NESTED = BaseExceptionGroup("outer", [BaseExceptionGroup("inner", [TERM])])
BESIDE_AN_ERROR = BaseExceptionGroup("unhandled errors in a TaskGroup", [TERM, OSError("taken")])
ERRORS_ONLY = ExceptionGroup("unhandled errors in a TaskGroup", [OSError("port taken")])


@pytest.mark.parametrize(
    ("raised", "leaving"),
    [
        (IN_A_GROUP, TERM),
        (NESTED, TERM),
        (BESIDE_AN_ERROR, BESIDE_AN_ERROR),
        (ERRORS_ONLY, ERRORS_ONLY),
    ],
    ids=["in a task group", "in nested task groups", "a stop beside an error", "errors only"],
)
def test_a_stop_alone_in_task_groups_leaves_the_block_as_itself_anything_else_as_it_came(
    raised: BaseExceptionGroup[BaseException], leaving: BaseException
) -> None:
    with pytest.raises((Stopped, BaseExceptionGroup)) as caught, stop_on_signals():
        raise raised
    assert caught.value is leaving
