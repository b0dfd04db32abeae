"""The clock of the questions asked in the processes a test starts (`provide_choice._test_clock`): a
test moves it forward, and the deadline it checks passes now rather than seconds later.

A deadline under test is the clock's behaviour: the question times out through its own timer
either way, here as soon as the test says, however busy the machine. A real wait had to be long
enough for a page or a terminal to show on a machine running three test processes at once, and then
took that long on a quiet one too. A few tests still wait for a real deadline, end to end, on each
surface that counts down or times out (the conformance table's single-question timeouts, `ask`'s
and the server terminal's own).

One file per test process: e2e/conftest.py names it in `PROVIDE_CHOICE_TEST_CLOCK` for the whole
session, so every process started, a module's shared servers too, follows it. A move reaches the
questions open at that moment, and only those.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from provide_choice._test_clock import move_forward

FOLDER = Path(tempfile.mkdtemp(prefix="agent-choices-clock-"))
atexit.register(shutil.rmtree, FOLDER, ignore_errors=True)
CLOCK = FOLDER / "clock"
"""The file every process of this test process's session follows."""


def forward(seconds: float) -> None:
    """Move the time of every question open in the processes this test started `seconds` forward:
    a question with less time left than that times out now."""
    move_forward(CLOCK, seconds)
