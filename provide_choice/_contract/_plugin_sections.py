"""A plug-in's own section of the settings file: `"telegram": {"token": ..., "chat_id": ...}`.

A transport installed as a plug-in keeps what it needs (a bot's token, the chat it talks to) in
the person's settings file, under its name, beside their settings. The section is read and saved
by the plug-in alone: it is no part of `InteractionSettings` (which ignores keys it does not
know), so nothing in it ever reaches a page, an app's host, a terminal's settings screen or a
shared store, and secrets may live there. Saving the person's settings keeps every section as it
is (`kept_sections`), and saving a section keeps everything else.

An environment variable wins over its key (`variables`), as `PROVIDE_CHOICE_NOTIFY` adds to
`notify_urls`: an MCP client's `env` for the server sets it without touching the file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from present_choices._private_files import write_private

FILE_SIZE_LIMIT = 64 * 1024
"""Bytes of a settings file read at most (the settings' own limit)."""


class SectionNotSaved(Exception):
    """A section could not be saved: the message names the file and says why."""


def plugin_settings(
    section: str,
    variables: Mapping[str, str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> dict[str, Any]:
    """The section `section` of the settings file (empty when the file, or the section, is
    missing or unreadable: `load_settings` says what is wrong with a broken file), with each key
    of `variables` taken from the environment variable it names wherever that is set and not
    empty."""
    stored = _read(path or _settings_path()) or {}
    found = stored.get(section)
    values = dict(found) if isinstance(found, dict) else {}
    environ = os.environ if environ is None else environ
    for key, variable in (variables or {}).items():
        if environ.get(variable, "").strip():
            values[key] = environ[variable].strip()
    return values


def save_plugin_settings(
    section: str, changes: Mapping[str, Any], *, path: Path | None = None
) -> Path:
    """Write `changes` into the section `section` of the settings file (its other keys, the other
    sections and the settings stay as they are), atomically, readable by the person alone.
    Returns the file's path. Raises `SectionNotSaved` when it cannot, or when the file holds
    something that is not a JSON object (it is never overwritten then)."""
    path = path or _settings_path()
    stored = _read(path)
    if stored is None and path.exists():
        raise SectionNotSaved(
            f"{path} is not a settings file this version can read (a JSON object of at most "
            f"{FILE_SIZE_LIMIT // 1024} KB); fix it or move it away, then try again"
        )
    stored = stored or {}
    current = stored.get(section)
    stored[section] = (dict(current) if isinstance(current, dict) else {}) | dict(changes)
    try:
        write_private(path, json.dumps(stored, indent=2) + "\n")
    except OSError as error:
        raise SectionNotSaved(f"cannot write {path} ({error.strerror or error})") from None
    return path


def kept_sections(path: Path, settings: Iterable[str]) -> dict[str, Any]:
    """What the settings file at `path` holds besides the settings named `settings` (the plug-ins'
    sections): kept as they are when the settings are saved."""
    stored = _read(path) or {}
    names = set(settings)
    return {key: value for key, value in stored.items() if key not in names}


def _read(path: Path) -> dict[str, Any] | None:
    """The file's JSON object; None when it is missing, unreadable, too large or not an object."""
    try:
        with path.open("rb") as file:
            data = file.read(FILE_SIZE_LIMIT + 1)
        if len(data) > FILE_SIZE_LIMIT:
            return None
        stored = json.loads(data.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return stored if isinstance(stored, dict) else None


def _settings_path() -> Path:
    # Deferred: the settings module imports this one (it keeps the sections when it saves).
    from provide_choice._contract._settings import settings_path

    return settings_path()
