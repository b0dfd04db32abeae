"""The person's interaction settings, and where they live between runs.

Settings belong to the person, not to the agent: they override how a question is shown (and what a
timeout returns) whatever the request asked for. They are read on every question, so a change made in
one surface (the terminal today, the web portal later) applies to the next question everywhere.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from present_choices import describe_errors

HOME_VARIABLE = "AGENT_CHOICES_HOME"
SETTINGS_FILE_NAME = "settings.json"
APPLICATION_NAME = "agent-choices"

PreferredTransport = Literal["auto", "terminal", "web"]
TimeoutAction = Literal["return_defaults", "return_nothing"]


class InteractionSettings(BaseModel):
    """How the person wants questions shown; `None` means "as the agent's request says"."""

    # Unknown keys are ignored so a settings file written by a newer version still loads.
    model_config = ConfigDict(extra="ignore", frozen=True)

    transport: PreferredTransport = Field(
        default="auto",
        description="Where questions appear when the agent does not name a transport.",
    )
    timeout_override_seconds: int | None = Field(
        default=None, ge=1, description="Replaces the request's timeout_seconds when set."
    )
    single_submit: bool | None = Field(
        default=None,
        description="Single choice: submit on selection (true) or toggle then Enter (false).",
    )
    annotations: bool = Field(default=True, description="Offer notes when the request allows them.")
    placeholder_visible: bool | None = Field(
        default=None, description="Show the suggested answer in text fields."
    )
    timeout_action: TimeoutAction = Field(
        default="return_defaults",
        description="What a timeout returns: the request's defaults, or nothing.",
    )


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
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return InteractionSettings()
    except (OSError, UnicodeDecodeError) as error:
        return _defaults_with_warning(path, f"cannot be read ({_reason(error)})")
    try:
        return InteractionSettings.model_validate(json.loads(text))
    except json.JSONDecodeError as error:
        return _defaults_with_warning(path, f"is not valid JSON ({error.msg}, line {error.lineno})")
    except ValidationError as error:
        return _defaults_with_warning(
            path, f"has invalid values ({'; '.join(describe_errors(error))})"
        )


def save_settings(settings: InteractionSettings, path: Path | None = None) -> None:
    """Write the settings atomically (temp file + rename), so a crash never leaves half a file.

    A failed write warns and returns: the person's answer matters more than remembering settings.
    """
    path = path or settings_path()
    text = json.dumps(settings.model_dump(mode="json"), indent=2) + "\n"
    temporary: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        _warn(
            f"could not save settings to {path} ({_reason(error)}); they apply to this question only"
        )


def _defaults_with_warning(path: Path, problem: str) -> InteractionSettings:
    _warn(f"settings file {path} {problem}; using default settings")
    return InteractionSettings()


def _warn(message: str) -> None:
    print(f"provide-choice: warning: {message}", file=sys.stderr, flush=True)


def _reason(error: OSError | UnicodeDecodeError) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
