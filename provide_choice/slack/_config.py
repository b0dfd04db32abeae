"""Which Slack app asks, where, and who may answer: the `slack` section of the settings file, each
key overridden by its environment variable.

| key | variable | what |
|---|---|---|
| `bot_token` | `PROVIDE_CHOICE_SLACK_BOT_TOKEN` | the app's bot token (`xoxb-...`): posts and edits |
| `app_token` | `PROVIDE_CHOICE_SLACK_APP_TOKEN` | its app-level token (`xapp-...`): Socket Mode |
| `channel` | `PROVIDE_CHOICE_SLACK_CHANNEL` | a channel id (`C...`), or a user id (`U...`) for a DM |
| `allowed_users` | | the user ids who may answer (a list; unset: anyone in the channel) |
| `api_url` | `PROVIDE_CHOICE_SLACK_API` | another Web API base URL (default `https://slack.com/api/`) |

The tokens are secrets: they only ever travel in an `Authorization` header, and every message
shows them as `***` (`hidden`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from provide_choice.transports import plugin_settings

SECTION = "slack"
BOT_TOKEN_VARIABLE = "PROVIDE_CHOICE_SLACK_BOT_TOKEN"
APP_TOKEN_VARIABLE = "PROVIDE_CHOICE_SLACK_APP_TOKEN"
CHANNEL_VARIABLE = "PROVIDE_CHOICE_SLACK_CHANNEL"
API_VARIABLE = "PROVIDE_CHOICE_SLACK_API"
VARIABLES = {
    "bot_token": BOT_TOKEN_VARIABLE,
    "app_token": APP_TOKEN_VARIABLE,
    "channel": CHANNEL_VARIABLE,
    "api_url": API_VARIABLE,
}
DEFAULT_API = "https://slack.com/api/"
HIDDEN = "***"


@dataclass(frozen=True)
class SlackConfig:
    """The app's tokens, the channel it asks in, who may answer, and the Web API's address."""

    bot_token: str | None
    app_token: str | None
    channel: str | None
    allowed_users: frozenset[str] = frozenset()
    """Empty: anyone who sees the question may answer it."""
    api_url: str = DEFAULT_API

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> SlackConfig:
        """From the settings file's `slack` section, the environment winning."""
        values = plugin_settings(SECTION, VARIABLES, environ=environ)
        api = _text(values.get("api_url")) or DEFAULT_API
        return cls(
            _text(values.get("bot_token")),
            _text(values.get("app_token")),
            _text(values.get("channel")),
            _users(values.get("allowed_users")),
            api.rstrip("/") + "/",
        )

    @property
    def problem(self) -> str | None:
        """What keeps the app from asking in Slack; None once it can."""
        missing = [
            f"{what} ({variable})"
            for what, value, variable in (
                ("the bot token", self.bot_token, BOT_TOKEN_VARIABLE),
                ("the app-level token", self.app_token, APP_TOKEN_VARIABLE),
                ("the channel", self.channel, CHANNEL_VARIABLE),
            )
            if value is None
        ]
        if not missing:
            return None
        return (
            f"Slack is not set up: give {', '.join(missing)}, or the same keys in the "
            '"slack" section of the settings file'
        )

    def may_answer(self, user: str) -> bool:
        return not self.allowed_users or user in self.allowed_users

    def hidden(self, text: str) -> str:
        """`text` with either token as `***` wherever it appears."""
        for token in (self.bot_token, self.app_token):
            if token:
                text = text.replace(token, HIDDEN)
        return text


def _text(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    return text or None


def _users(value: Any) -> frozenset[str]:
    """User ids, from a list or a comma-separated string."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple):
        return frozenset()
    return frozenset(text for item in value if (text := _text(item)) is not None)
