"""A stop signal while `provide-choice serve` starts, before its own signal receiver listens, ends
it with its one line, even from inside the task group it serves in (anyio hands what a task
raised on wrapped in a `BaseExceptionGroup`). Run in a fresh Python: it sets signal handlers."""

from __future__ import annotations

import subprocess
import sys

STARTING = (
    "import anyio, signal\n"
    "from provide_choice._server._serve import _stopped_while_starting\n"
    "async def start():\n"
    "    async with anyio.create_task_group() as group:\n"
    "        group.start_soon(anyio.sleep_forever)\n"
    "{inside}"
    "with _stopped_while_starting():\n"
    "    anyio.run(start)\n"
    "print('ended')\n"
)


def start_with(inside: str) -> subprocess.CompletedProcess[str]:
    """Run a start whose task group does `inside` (lines indented for it)."""
    code = STARTING.format(inside=inside)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


def test_a_stop_raised_inside_the_task_group_is_the_one_line_not_a_traceback() -> None:
    result = start_with(
        "        signal.raise_signal(signal.SIGTERM)\n        await anyio.sleep(20)\n"
    )
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        "ended\n",
        "provide-choice: stopped (SIGTERM)\n",
    )


def test_an_error_inside_the_task_group_still_rises() -> None:
    result = start_with("        raise OSError('port taken')\n")
    assert (result.returncode, result.stdout) == (1, "")
    assert "OSError: port taken" in result.stderr
