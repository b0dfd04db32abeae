"""Whether a process that wrote something down (a question, the inbox's address) still runs.

A server killed with SIGKILL cannot clean up after itself, so readers check for themselves. A bare
pid is not enough: a process that died stays a zombie until its parent reaps it (and `kill(pid, 0)`
still succeeds), and a pid is reused once reaped. So a process is named by its pid and, where the
system tells it (Linux's /proc), its start time: a different start time is a different process.
"""

from __future__ import annotations

import os
import sys
from contextlib import suppress
from typing import NamedTuple


class ProcessIdentity(NamedTuple):
    """A process as it can be found again: its pid, and its start time when the system tells it."""

    pid: int
    start: str | None


def this_process() -> ProcessIdentity:
    pid = os.getpid()
    return ProcessIdentity(pid, _linux_status(pid)[1])


def is_running(process: ProcessIdentity) -> bool:
    """Whether `process` still runs: not gone, not a zombie, and not another process on its pid."""
    if process.pid <= 0:
        return False
    state, start = _linux_status(process.pid)
    if state is not None:
        return state not in ("Z", "X") and (process.start is None or start == process.start)
    if os.path.isdir("/proc/self"):
        return False  # /proc is there and has no entry for the pid: it is gone
    if sys.platform == "win32":
        return True  # os.kill would terminate it; readers also drop what is long past its deadline
    try:
        os.kill(process.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, as another user's process
    return True


def _linux_status(pid: int) -> tuple[str | None, str | None]:
    """The process's state letter and start time (clock ticks since boot) from /proc/<pid>/stat,
    or (None, None) where there is no such file."""
    with suppress(OSError):
        with open(f"/proc/{pid}/stat", "rb") as file:
            text = file.read().decode("ascii", "replace")
        # The command name (in parentheses) may hold spaces and parentheses: fields follow the last ")".
        fields = text[text.rfind(")") + 2 :].split()
        if len(fields) > 19:
            return fields[0], fields[19]
    return None, None
