"""The person's interaction settings, and where they live between runs.

Settings belong to the person, not to the agent: they override how a question is shown (and what a
timeout returns) whatever the request asked for. They are read on every question, so a change made in
one surface (a terminal, a page) applies to the next question everywhere.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from present_choices import ChoicesError, describe_errors
from present_choices._private_files import write_private
from present_choices._schema import quote
from present_choices._translation import (
    AUTO,
    N_,
    Translation,
    terminal_translation,
    valid_tag,
)
from provide_choice._contract._mirror_channels import mirror_channels
from provide_choice._contract._plugin_sections import kept_sections
from provide_choice._contract._transport_table import PreferredTransport

HOME_VARIABLE = "AGENT_CHOICES_HOME"
SETTINGS_FILE_NAME = "settings.json"
APPLICATION_NAME = "agent-choices"

TimeoutAction = Literal["return_defaults", "return_nothing"]
NotifyDetail = Literal["full", "title_only"]

TIMEOUT_OVERRIDE_RANGE = (1, 86_400)
"""Seconds a timeout override may hold: up to a day. A bound, not a taste: a deadline is a float
of monotonic seconds, and an unbounded integer overflows it."""
HISTORY_DAYS_RANGE = (1, 3_650)
"""Days a question stays in the history: up to ten years."""
ALERT_AFTER_RANGE = (0, 86_400)
"""Seconds a question may wait untouched before the alerts go: at once, up to a day."""
NOTIFY_URL_LIMIT = 20
"""Push addresses at most: far more than anyone sends a question to."""
FILE_SIZE_LIMIT = 64 * 1024
"""Bytes of a settings file read at most; a real one holds a few hundred."""
TIME_RULE = N_(
    "Type a date and time such as 2026-11-30T18:00 (ISO 8601, local time unless it has an "
    "offset), or nothing when you are not away."
)


def local_time(text: str) -> datetime:
    """An ISO 8601 time as a time of this machine's zone: local when it has no offset. Raises
    `ValueError` saying what is allowed."""
    try:
        return datetime.fromisoformat(text).astimezone()
    except (ValueError, OverflowError, OSError):
        raise ValueError(
            f"must be an ISO 8601 date and time such as 2026-11-30T18:00 (local time unless it "
            f"has an offset), or null, got {quote(text)}"
        ) from None


def _as_local_time(text: str | None) -> str | None:
    """The time as the local time it names, to the minute (or the second when it has one)."""
    if text is None:
        return None
    named = local_time(text).replace(tzinfo=None, microsecond=0)
    return named.isoformat(timespec="minutes" if named.second == 0 else "seconds")


class AlertChannels(BaseModel):
    """Which channels tell the person that a question waits (`alert_channels` words them)."""

    # A channel of a transport that follows every question (`_mirror_channels`: Telegram) is kept
    # beside these, as is one a newer version or an uninstalled plug-in added; `apply_changes`
    # refuses a channel that is none of them.
    model_config = ConfigDict(extra="allow", frozen=True)

    terminal: bool = True
    desktop: bool = True
    browser: bool = True
    push: bool = True

    @model_validator(mode="before")
    @classmethod
    def _channels_are_on_or_off(cls, data: Any) -> Any:
        """A transport's channel is true or false, and kept only while off (on is its default):
        settings read back from a surface equal the ones it was sent."""
        if not isinstance(data, dict):
            return data
        kept = {}
        for name, value in data.items():
            if name not in cls.model_fields and not isinstance(value, bool):
                raise ValueError(f"alerts: {quote(name)} must be true or false")
            if name in cls.model_fields or value is False:
                kept[name] = value
        return kept

    def on(self, channel: str) -> bool:
        """Whether `channel` is on: a transport's channel is on until the person turns it off."""
        value = getattr(self, channel, True)
        return value if isinstance(value, bool) else True


def _space_separated(value: object) -> object:
    """A settings file may hold the push addresses as one string, as the environment does."""
    return value.split() if isinstance(value, str) else value


NotifyUrl = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2_000)]


class InteractionSettings(BaseModel):
    """How the person wants questions shown; `None` means "as the agent's request says"."""

    # Unknown keys are ignored so a settings file written by a newer version still loads.
    model_config = ConfigDict(extra="ignore", frozen=True)

    transport: PreferredTransport = Field(
        default="auto",
        description="Where questions appear when the agent does not name a transport.",
    )
    timeout_override_seconds: int | None = Field(
        default=None,
        ge=TIMEOUT_OVERRIDE_RANGE[0],
        le=TIMEOUT_OVERRIDE_RANGE[1],
        description="Replaces the request's timeout_seconds when set.",
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
    keep_history: bool = Field(
        default=True,
        description="Record every question and its answer in the history; off: nothing stays "
        "once a question ends.",
    )
    history_days: int = Field(
        default=30,
        ge=HISTORY_DAYS_RANGE[0],
        le=HISTORY_DAYS_RANGE[1],
        description="Days a question stays in the history; older ones go at the next start.",
    )
    alerts: AlertChannels = Field(
        default_factory=AlertChannels,
        description="Which channels tell the person a question waits: terminal, desktop, "
        "browser, push, and each installed transport that follows every question (telegram).",
    )
    alert_after_seconds: int = Field(
        default=0,
        ge=ALERT_AFTER_RANGE[0],
        le=ALERT_AFTER_RANGE[1],
        description="Alert only once a question has waited this long untouched (0: at once); "
        "the reminder comes anyway.",
    )
    notify_urls: Annotated[
        tuple[NotifyUrl, ...], BeforeValidator(_space_separated), Field(max_length=NOTIFY_URL_LIMIT)
    ] = Field(
        default=(),
        description="Where push alerts go: apprise URLs (ntfy://, slack://, json://, ...). "
        "Secret: never sent to a page, a terminal or an app.",
    )
    notify_detail: NotifyDetail = Field(
        default="full",
        description="What a push alert says: the question, its options and where to answer "
        "(full), or its title alone (title_only).",
    )
    unattended_action: TimeoutAction = Field(
        default="return_defaults",
        description="What a question nobody can be asked returns (unattended, away): the "
        "request's defaults, or nothing.",
    )
    away_until: Annotated[str | None, AfterValidator(_as_local_time)] = Field(
        default=None,
        description="The person is away until this local time: questions get the unattended "
        "reply at once meanwhile.",
    )

    language: str = Field(
        default=AUTO,
        description="The language of every surface: auto (the browser's, the terminal's), or a "
        "language tag such as en, zh-Hans or zh-CN.",
    )

    @field_validator("language")
    @classmethod
    def _language_tag(cls, language: str) -> str:
        if language != AUTO and not valid_tag(language):
            raise ValueError("must be 'auto' or a language tag such as en, zh-Hans or zh-CN")
        return language


SETTING_NAMES = tuple(InteractionSettings.model_fields)


def away_until(settings: InteractionSettings, now: datetime | None = None) -> str | None:
    """Until when the person is away, in words of local time ("18:00"; "2026-12-01 18:00" on
    another day), while it holds; None when they are not away."""
    if settings.away_until is None:
        return None
    until, now = local_time(settings.away_until), now or datetime.now().astimezone()
    if until <= now:
        return None
    return f"{until:%H:%M}" if until.date() == now.date() else f"{until:%Y-%m-%d %H:%M}"


ALERTS_LABEL = N_("Tell me a question waits")
ALERT_CHANNELS: dict[str, str] = {
    "terminal": N_("In the terminal (its notification, else a bell)"),
    "desktop": N_("On the desktop (a system notification)"),
    "browser": N_("In the browser (the tab's count and badge, the inbox's notifications)"),
    "push": N_("By push, to the addresses in notify_urls"),
}
"""How every surface names the built-in alert channels, in the order they are offered (`alerts`)."""


def alert_channels() -> dict[str, str]:
    """Every alert channel, by name, with how surfaces word it: the built-in ones, then those of
    the registered transports that follow every question (`_mirror_channels`)."""
    return ALERT_CHANNELS | mirror_channels()


SECRET_SETTINGS = frozenset({"notify_urls"})
"""Settings kept from every surface (a page, an app's host, a terminal an agent may read): push
addresses carry tokens. They are set in the settings file or `PROVIDE_CHOICE_NOTIFY`."""


def shown_settings(settings: InteractionSettings) -> dict[str, Any]:
    """The settings as a surface may show them: without the secret ones, with how many push
    addresses the settings file holds (`notify_url_count`), and every alert channel offered now
    (a channel of a plug-in not installed stays in the file, unshown)."""
    shown = settings.model_dump(mode="json", exclude=set(SECRET_SETTINGS))
    shown["alerts"] = {channel: settings.alerts.on(channel) for channel in alert_channels()}
    return shown | {"notify_url_count": len(settings.notify_urls)}


def apply_changes(
    settings: InteractionSettings, data: object
) -> tuple[InteractionSettings, dict[str, Any]]:
    """`settings` with the changes in `data` (an object of setting names to new values), and
    those changes as validated values. Raises `ChoicesError` saying what is allowed."""
    if not isinstance(data, dict):
        raise ChoicesError(["settings must be an object of the settings to change"])
    changeable = [name for name in SETTING_NAMES if name not in SECRET_SETTINGS]
    unknown = [name for name in data if name not in changeable]
    if unknown:
        raise ChoicesError(
            [
                f"{quote(name)} is set in the settings file or PROVIDE_CHOICE_NOTIFY only"
                if name in SECRET_SETTINGS
                else f"{quote(name)} is not a setting; settings: {', '.join(changeable)}"
                for name in unknown[:5]
            ]
        )
    if "alerts" in data:
        data = data | {"alerts": _alerts_changed(settings.alerts, data["alerts"])}
    try:
        changed = InteractionSettings.model_validate(settings.model_dump() | data, strict=True)
    except ValidationError as error:
        raise ChoicesError(describe_errors(error)) from None
    return changed, {name: getattr(changed, name) for name in data}


def _alerts_changed(alerts: AlertChannels, change: object) -> object:
    """The channels after a change that names some of them (`{"push": false}`): the others stay."""
    if not isinstance(change, dict):
        return change  # refused by validation, in its words
    channels = alert_channels()
    unknown = [name for name in change if name not in channels]
    if unknown:
        raise ChoicesError(
            [
                f"alerts: {quote(name)} is not a channel; channels: {', '.join(channels)}"
                for name in unknown[:5]
            ]
        )
    return alerts.model_dump() | change


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
    What the file holds besides the settings (a plug-in's section) is kept.
    """
    path = path or settings_path()
    # A plug-in's section (`"telegram": {...}`) is the plug-in's: it stays as it is.
    written = kept_sections(path, SETTING_NAMES) | settings.model_dump(mode="json")
    text = json.dumps(written, indent=2) + "\n"
    try:
        write_private(path, text)
    except OSError as error:
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
