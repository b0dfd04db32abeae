"""Where the running inbox is, so that every question's page can link back to it.

The inbox writes its address and its process to `inbox.json` in the data directory while it runs;
a page shows the link only while that process runs (an inbox killed without cleaning up leaves
the file behind), and only to an address of the inbox's own form.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from provide_choice._history._process import ProcessIdentity, is_running, this_process
from provide_choice._history._store import data_directory

LINK_FILE_NAME = "inbox.json"
CHECK_SECONDS = 1.0
"""How long a page's state reuses what it found: the state is built every few seconds per page."""
INBOX_ADDRESS = re.compile(r"http://127\.0\.0\.1:[0-9]{1,5}")


def link_path() -> Path:
    return data_directory() / LINK_FILE_NAME


def announce(url: str) -> None:
    """Say that this process serves the inbox at `url` (replacing the file at once, whole)."""
    path = link_path()
    process = this_process()
    text = json.dumps({"url": url, "pid": process.pid, "start": process.start})
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{process.pid}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def withdraw() -> None:
    """Remove the file, when it still names this process (a newer inbox may have replaced it)."""
    path = link_path()
    found = _read(path)
    if found is not None and found[0] == this_process():
        path.unlink(missing_ok=True)


def running_inbox() -> str | None:
    """The address of the inbox that runs now, or None."""
    path = link_path()
    found = _read(path)
    if found is None or not is_running(found[0]):
        return None
    return found[1]


class InboxLink:
    """`running_inbox()`, found again at most once a `CHECK_SECONDS`."""

    def __init__(self) -> None:
        self._checked: tuple[float, Path, str | None] | None = None

    def url(self) -> str | None:
        now, path = time.monotonic(), link_path()
        if (
            self._checked is None
            or self._checked[1] != path
            or now - self._checked[0] > CHECK_SECONDS
        ):
            self._checked = (now, path, running_inbox())
        return self._checked[2]


def _read(path: Path) -> tuple[ProcessIdentity, str] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        process = ProcessIdentity(int(data["pid"]), data["start"])
        url = data["url"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(url, str) or not INBOX_ADDRESS.fullmatch(url):
        return None
    if process.start is not None and not isinstance(process.start, str):
        return None
    return process, url
