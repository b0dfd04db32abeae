"""How a surface changes the person's settings, and what it may show of them.

Every surface changes settings the same way (`apply_changes`: only the settings named, each
validated, a channel of `alerts` alone), and none ever sees the secret ones (`SECRET_SETTINGS`:
push addresses carry tokens), so a page, an app's host or a terminal an agent may read is shown
`shown_settings` only.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from present_choices import ChoicesError, describe_errors
from present_choices._schema import quote
from provide_choice._contract._setting_labels import alert_channels
from provide_choice._contract._settings import (
    SETTING_NAMES,
    AlertChannels,
    InteractionSettings,
)

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
