"""Files only their owner may read or write, in the person's data directory: the inbox's record and
its opener page, the server's token.

Each holds a credential (a token) or leads to one, so each is written whole (a reader never sees half
a file), created with mode 600 whatever the umask, in a directory made with mode 700; and a file is
trusted only when it is this user's and no one else can read or write it: one anybody could have
written could point a page at a stranger's address, and one anybody could read is no secret.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_MODE = 0o600
DIRECTORY_MODE = 0o700


class NotPrivate(Exception):
    """A file that should be private is not (its mode, or its owner); the message says which."""


def write_private(path: Path, text: str) -> None:
    """Replace `path` with `text` at once, in a file created with mode 600 (whatever the umask)."""
    os.replace(_written_aside(path, text), path)


def create_private(path: Path, text: str) -> bool:
    """Make `path` hold `text`, whole and private, unless it exists: False then, and it is left as
    it is (two processes making it at once both end up reading the one that won)."""
    aside = _written_aside(path, text)
    try:
        os.link(aside, path)
    except FileExistsError:
        return False
    finally:
        aside.unlink()
    return True


def _written_aside(path: Path, text: str) -> Path:
    """`text` in a new private file beside `path`, in a private directory; its path."""
    directory = path.parent
    directory.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    status = directory.stat()
    if hasattr(os, "getuid") and _owned(status) and stat.S_IMODE(status.st_mode) & 0o077:
        directory.chmod(DIRECTORY_MODE)  # made by something less careful (a settings save)
    aside = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    aside.unlink(missing_ok=True)  # left by a process killed while writing: not ours to trust
    descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    return aside


def read_private(path: Path) -> str:
    """The text of `path`, checked on the open file itself (no window between a check and the
    read). Raises `FileNotFoundError` (an `OSError`) when it is missing, `NotPrivate` when someone
    else owns it or may read or write it."""
    with path.open(encoding="utf-8") as file:
        status = os.fstat(file.fileno())
        if not is_private(status):
            mode = stat.S_IMODE(status.st_mode)
            raise NotPrivate(
                f"{path} must be yours and readable by you alone (mode 600), and it has mode "
                f"{mode:o}" + ("" if _owned(status) else " and another owner")
            )
        return file.read()


def is_private(status: os.stat_result) -> bool:
    """Owned by this user and readable by no one else (where the system has users and modes)."""
    if not hasattr(os, "getuid"):
        return True
    return _owned(status) and not stat.S_IMODE(status.st_mode) & 0o077


def _owned(status: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or status.st_uid == os.getuid()
