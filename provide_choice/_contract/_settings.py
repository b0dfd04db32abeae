"""The person's interaction settings: what each one is, and the rules of its values.

Settings belong to the person, not to the agent: they override how a question is shown (and what a
timeout returns) whatever the request asked for. How a surface changes them and what it may show of
them is `_setting_changes`; how every surface names them, `_setting_labels`; the file they live in
between runs is not the contract's (`provide_choice._settings_file`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from present_choices._schema import quote
from present_choices._translation import AUTO, N_, valid_tag
from provide_choice._contract._transport_table import PreferredTransport

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
