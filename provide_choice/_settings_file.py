"""The person's settings file: where it is, reading it, and writing it.

The settings themselves (what each one is, its rules) are the contract's (`_contract._settings`);
this is where they live between runs: `$AGENT_CHOICES_HOME/settings.json`, else the platform's
user config directory. It is read on every question, so a change made in one surface (a terminal,
a page) applies to the next question everywhere; and it never fails a question: a missing file is
the defaults, a broken one the defaults and one warning, a write that fails one warning.

A floor of its own, between the contract and the live question: everything above it reads the
settings (the registry, the history, the inbox, the commands); the contract never touches a file.

A plug-in keeps what it needs (a bot's token, the chat it talks to) in a section of its own, under
its name (`"telegram": {...}`): read and saved by the plug-in alone (`plugin_settings`,
`save_plugin_settings`), environment variables winning over its keys. It is no part of
`InteractionSettings` (which ignores keys it does not know), so nothing in it reaches a page, an
app's host, a terminal's settings screen or a shared store, and secrets may live there; saving the
person's settings keeps every section as it is.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from present_choices import describe_errors
from present_choices._private_files import write_private
from present_choices._translation import Translation, terminal_translation
from provide_choice._contract._settings import SETTING_NAMES, InteractionSettings
from provide_choice._notices import warn

HOME_VARIABLE = "AGENT_CHOICES_HOME"
"""Where this package keeps the person's files (the settings, the history), when set."""
SETTINGS_FILE_NAME = "settings.json"
APPLICATION_NAME = "agent-choices"
FILE_SIZE_LIMIT = 64 * 1024
"""Bytes of a settings file read at most; a real one holds a few hundred."""


def save_changes(changes: Mapping[str, Any], path: Path | None = None) -> InteractionSettings:
    """Write only these changes over the settings saved now, so surfaces open at once (a page,
    a terminal) never undo each other's changes. Returns the settings as saved."""
    settings = load_settings(path).model_copy(update=dict(changes))
    save_settings(settings, path)
    return settings


def settings_path() -> Path:
    """`$AGENT_CHOICES_HOME/settings.json`, else the platform's user config directory."""
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home).expanduser() / SETTINGS_FILE_NAME
    import platformdirs  # only needed when no override is set

    return (
        Path(platformdirs.user_config_dir(APPLICATION_NAME, appauthor=False)) / SETTINGS_FILE_NAME
    )


def load_settings(path: Path | None = None) -> InteractionSettings:
    """The saved settings; a missing file means defaults, a broken one defaults plus one warning.

    A question must never fail because of a settings file, so nothing here raises.
    """
    path = path or settings_path()
    try:
        with path.open("rb") as file:
            data = file.read(FILE_SIZE_LIMIT + 1)
    except FileNotFoundError:
        return InteractionSettings()
    except OSError as error:
        return _defaults_with_warning(path, f"cannot be read ({_reason(error)})")
    if len(data) > FILE_SIZE_LIMIT:
        return _defaults_with_warning(path, f"is larger than {FILE_SIZE_LIMIT // 1024} KB")
    try:
        return InteractionSettings.model_validate(json.loads(data.decode("utf-8")))
    except UnicodeDecodeError as error:
        return _defaults_with_warning(path, f"is not UTF-8 text ({error.reason})")
    except json.JSONDecodeError as error:
        return _defaults_with_warning(path, f"is not valid JSON ({error.msg}, line {error.lineno})")
    except ValidationError as error:
        return _defaults_with_warning(
            path, f"has invalid values ({'; '.join(describe_errors(error))})"
        )
    except (ValueError, RecursionError) as error:  # a 5,000-digit number, nesting 100,000 deep
        return _defaults_with_warning(path, f"cannot be parsed ({type(error).__name__})")


def terminal_words() -> Translation:
    """The language a command speaks to the person at its terminal: their setting `language`,
    else the terminal's variables."""
    return terminal_translation(load_settings().language)


def save_settings(settings: InteractionSettings, path: Path | None = None) -> None:
    """Write the settings atomically (temp file + rename), so a crash never leaves half a file;
    readable by the person alone, in a directory of theirs alone (modes 600 and 700).

    A failed write warns and returns: the person's answer matters more than remembering settings.
    What the file holds besides the settings (a plug-in's section) is kept as it is.
    """
    path = path or settings_path()
    kept = {key: value for key, value in (_stored(path) or {}).items() if key not in SETTING_NAMES}
    text = json.dumps(kept | settings.model_dump(mode="json"), indent=2) + "\n"
    try:
        write_private(path, text)
    except OSError as error:
        warn(
            f"could not save settings to {path} ({_reason(error)}); they apply to this question only"
        )


class SectionNotSaved(Exception):
    """A plug-in's section could not be saved: the message names the file and says why."""


def plugin_settings(
    section: str,
    variables: Mapping[str, str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    path: Path | None = None,
) -> dict[str, Any]:
    """The section `section` of the settings file (empty when the file, or the section, is
    missing or unreadable: `load_settings` says what is wrong with a broken file), each key of
    `variables` taken from the environment variable it names wherever that is set and not empty."""
    found = (_stored(path or settings_path()) or {}).get(section)
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
    path = path or settings_path()
    stored = _stored(path)
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
        raise SectionNotSaved(f"cannot write {path} ({_reason(error)})") from None
    return path


def _stored(path: Path) -> dict[str, Any] | None:
    """The file's JSON object; None when it is missing, unreadable, too large or not an object."""
    try:
        with path.open("rb") as file:
            data = file.read(FILE_SIZE_LIMIT + 1)
        stored = json.loads(data.decode("utf-8")) if len(data) <= FILE_SIZE_LIMIT else None
    except (OSError, ValueError, RecursionError):
        return None
    return stored if isinstance(stored, dict) else None


def _defaults_with_warning(path: Path, problem: str) -> InteractionSettings:
    warn(f"settings file {path} {problem}; using default settings")
    return InteractionSettings()


def _reason(error: OSError | UnicodeDecodeError) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
