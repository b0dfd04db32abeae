"""Files that only their owner may read: conversations, questions, answers, tokens and settings.

The chat and the MCP server share one data directory (`~/.local/share/agent-choices/` on Linux),
and either may be the first to create it, so both make directories and files here, one way: a
directory with mode 700 (each missing parent too, as the XDG base directory specification asks),
a file with mode 600, whatever the umask. A file is written whole or not at all (a temporary file
renamed over it), so a crash never leaves half of it behind.

Directories and files made by earlier versions (a chat that created its directory 755 and its
conversations 644) are tightened at start: `tighten` takes group and other permissions off them
and says what it changed, so the command can say so, once.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Sequence
from fnmatch import fnmatch
from pathlib import Path

from present_choices._translation import Translation

PRIVATE_DIRECTORY_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
OTHERS = 0o077
"""The permission bits of the group and of everyone else: none of them stays on a private path."""


def private_directory(path: Path) -> Path:
    """`path`, created with mode 700 when it is missing, and so is each missing parent.

    An existing directory is left as it is (`tighten` is for those); a file in the way raises
    `OSError`, as `mkdir` does.
    """
    missing = []
    current = path
    while not os.path.lexists(current) and current != current.parent:
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        try:
            directory.mkdir(mode=PRIVATE_DIRECTORY_MODE)
        except FileExistsError:  # another process made it meanwhile
            continue
        os.chmod(directory, PRIVATE_DIRECTORY_MODE)  # the umask may have taken bits off
    return path


def write_private(path: Path, text: str) -> None:
    """Replace `path` with `text`, whole, in a file of mode 600; its directory is created private
    when missing. Raises `OSError` when it cannot, leaving the file as it was."""
    temporary = _written_aside(path, text)
    try:
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise


def create_private(path: Path, text: str) -> bool:
    """Make `path` hold `text`, whole and private, unless it exists: False then, and it is left as
    it is (two processes making it at once both end up reading the one that won). Raises `OSError`
    when it cannot."""
    temporary = _written_aside(path, text)
    try:
        os.link(temporary, path)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return True


class NotPrivate(Exception):
    """A file that should be private is not (its mode, or its owner); the message says which."""


def read_private(path: Path) -> str:
    """The text of `path`, checked on the open file itself (no window between a check and the
    read). Raises `FileNotFoundError` (an `OSError`) when it is missing, `NotPrivate` when someone
    else owns it or may read or write it: one anybody could have written could point a page at a
    stranger's address, and one anybody could read is no secret."""
    with path.open(encoding="utf-8") as file:
        status = os.fstat(file.fileno())
        if not _owned(status) or stat.S_IMODE(status.st_mode) & OTHERS:
            mode = stat.S_IMODE(status.st_mode)
            raise NotPrivate(
                f"{path} must be yours and readable by you alone (mode 600), and it has mode "
                f"{mode:o}" + ("" if _owned(status) else " and another owner")
            )
        return file.read()


def _written_aside(path: Path, text: str) -> Path:
    """`text` in a new file of mode 600 beside `path` (in a directory made private when missing),
    written and flushed to the disk; its path. Raises `OSError`, leaving nothing behind."""
    private_directory(path.parent)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.unlink(missing_ok=True)  # left by a process killed while writing: not ours
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
        os.fchmod(descriptor, PRIVATE_FILE_MODE)  # the umask may have taken bits off
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise
    return temporary


def tighten(places: Iterable[tuple[Path, Sequence[str]]]) -> list[Path]:
    """Take the group's and everyone else's permissions off each directory of `places` (a
    directory and the patterns of its files) that exists and off the files directly in it whose
    names match a pattern (`fnmatch`: the files the command writes there, not whatever else the
    person keeps beside them); the paths changed, in order.

    Links are not followed, paths owned by another user are left alone, and a path that cannot be
    changed is skipped: tightening never keeps a command from starting.
    """
    changed: list[Path] = []
    for directory, patterns in places:
        if _tightened(directory):
            changed.append(directory)
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        ours = [name for name in names if any(fnmatch(name, pattern) for pattern in patterns)]
        changed.extend(
            directory / name for name in ours if _tightened(directory / name, files_only=True)
        )
    return changed


def written_as(*names: str) -> list[str]:
    """The patterns of the files `write_private` writes under these names: each, and the
    temporary file it is written to first (left behind by a process killed while writing)."""
    return [pattern for name in names for pattern in (name, f".{name}.*.tmp")]


def describe_tightened(changed: list[Path], translation: Translation) -> str:
    """One line saying what `tighten` changed, for the command to print, in the person's
    language."""
    directories = ", ".join(str(path) for path in changed if path.is_dir())
    files = [path for path in changed if not path.is_dir()]
    folders = ", ".join(dict.fromkeys(str(path.parent) for path in files))
    if not files:
        return translation.gettext(
            "made {directories} private (mode 700, files 600): other users could read the "
            "conversations, questions, answers, tokens or settings they hold",
            directories=directories,
        )
    if not directories:
        return translation.ngettext(
            "made {count} file in {folders} private (mode 700, files 600): other users could "
            "read the conversations, questions, answers, tokens or settings it holds",
            "made {count} files in {folders} private (mode 700, files 600): other users could "
            "read the conversations, questions, answers, tokens or settings they hold",
            len(files),
            folders=folders,
        )
    return translation.ngettext(
        "made {directories} and {count} file in {folders} private (mode 700, files 600): other "
        "users could read the conversations, questions, answers, tokens or settings they hold",
        "made {directories} and {count} files in {folders} private (mode 700, files 600): other "
        "users could read the conversations, questions, answers, tokens or settings they hold",
        len(files),
        directories=directories,
        folders=folders,
    )


def _tightened(path: Path, *, files_only: bool = False) -> bool:
    """Whether `path` was open to others and is no longer."""
    try:
        status = os.lstat(path)
    except OSError:
        return False
    kind = stat.S_IFMT(status.st_mode)
    wanted = kind == stat.S_IFREG if files_only else kind == stat.S_IFDIR
    mode = stat.S_IMODE(status.st_mode)
    if not wanted or not mode & OTHERS or not _owned(status):
        return False
    try:
        os.chmod(path, mode & ~OTHERS)
    except OSError:
        return False
    return True


def _owned(status: os.stat_result) -> bool:
    return not hasattr(os, "getuid") or status.st_uid == os.getuid()
