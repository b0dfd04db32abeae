"""Where the running inbox is, with its token, so that every question's page can link back to it.

The inbox writes it, question pages read it: it lives beside the inbox's package, not in it, so a
page never imports the inbox (nor the inbox the page).

The inbox writes its address, its token and its process to `inbox.json` in the data directory while
it runs, readable by the person alone (mode 600, like the history): the token is what keeps the
inbox's list of questions from every other process on the machine. A page shows the link only while
that process runs, only to an address of the inbox's own form, and only from a file that no one else
could have written.

When the inbox stops, it removes the file. An inbox killed without cleaning up (SIGKILL) leaves it
behind: its process is gone, so it is no link, and the next inbox replaces it, with a new token;
the old token opens nothing, since the only server that took it is gone.

The browser is opened through a second private file, `inbox-open.html`, that forwards to the
address: a browser started with the address on its command line would show the token to anyone who
lists the machine's processes, for as long as that browser runs.
"""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

from present_choices._private_files import NotPrivate, read_private, write_private
from provide_choice._history._process import ProcessIdentity, is_running, this_process
from provide_choice._history._store import data_directory

TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
"""The form of an inbox's token (`_inbox._token.new_token` makes them)."""
QUERY_NAME = "token"
LINK_FILE_NAME = "inbox.json"
OPENER_FILE_NAME = "inbox-open.html"
CHECK_SECONDS = 1.0
"""How long a page's state reuses what it found: the state is built every few seconds per page."""
INBOX_ADDRESS = re.compile(r"http://127\.0\.0\.1:[0-9]{1,5}")
OPENER = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url={address}">
<title>Opening the inbox — provide-choice</title>
</head>
<body><p><a href="{address}">Open the inbox</a></p></body>
</html>
"""


def link_path() -> Path:
    return data_directory() / LINK_FILE_NAME


def opener_path() -> Path:
    return data_directory() / OPENER_FILE_NAME


def announce(url: str, token: str) -> None:
    """Say that this process serves the inbox at `url` with `token` (replacing the file at once,
    whole, readable by the person alone). An opener page left by an inbox that was killed goes:
    it holds a token that opens nothing any more."""
    process = this_process()
    record = {"url": url, "token": token, "pid": process.pid, "start": process.start}
    write_private(link_path(), json.dumps(record))
    opener_path().unlink(missing_ok=True)


def withdraw() -> None:
    """Remove the file, and the opener, when the file still names this process (a newer inbox may
    have replaced it)."""
    path = link_path()
    found = _read(path)
    if found is not None and found[0] == this_process():
        path.unlink(missing_ok=True)
        opener_path().unlink(missing_ok=True)


def running_inbox() -> str | None:
    """The full address (with the token) of the inbox that runs now, or None."""
    found = _read(link_path())
    if found is None or not is_running(found[0]):
        return None
    return found[1]


def opener(address: str) -> Path:
    """A private page that forwards the browser to `address`: open it instead of the address, so
    that the token stays off every command line."""
    path = opener_path()
    write_private(path, OPENER.format(address=html.escape(address)))
    return path


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
    """The process and the full address a record names, or None for a record that is missing, not
    private to this user, or not of the inbox's own form."""
    try:
        data = json.loads(read_private(path))
        process = ProcessIdentity(int(data["pid"]), data["start"])
        url, token = data["url"], data["token"]
    except (OSError, NotPrivate, ValueError, KeyError, TypeError):
        return None
    if not isinstance(url, str) or not INBOX_ADDRESS.fullmatch(url):
        return None
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        return None
    if process.start is not None and not isinstance(process.start, str):
        return None
    return process, address_with_token(url, token)


def address_with_token(url: str, token: str) -> str:
    """The address to print, open and link to: the inbox's page with its token."""
    return f"{url}/?{QUERY_NAME}={token}"
