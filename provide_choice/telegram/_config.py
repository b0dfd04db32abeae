"""Where the bot is and which chat is the person's: the `telegram` section of the settings file,
each key overridden by its environment variable.

| key | variable | what |
|---|---|---|
| `token` | `PROVIDE_CHOICE_TELEGRAM_TOKEN` | the bot's token, from BotFather |
| `chat_id` | `PROVIDE_CHOICE_TELEGRAM_CHAT` | the linked chat (`provide-choice telegram link` saves it) |
| `api_url` | `PROVIDE_CHOICE_TELEGRAM_API` | another Bot API server (default `https://api.telegram.org`) |

The token is a secret: it is only ever written into request addresses, and every message shows it
as `bot***` (`hidden`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from provide_choice.transports import plugin_settings

SECTION = "telegram"
TOKEN_VARIABLE = "PROVIDE_CHOICE_TELEGRAM_TOKEN"
CHAT_VARIABLE = "PROVIDE_CHOICE_TELEGRAM_CHAT"
API_VARIABLE = "PROVIDE_CHOICE_TELEGRAM_API"
VARIABLES = {"token": TOKEN_VARIABLE, "chat_id": CHAT_VARIABLE, "api_url": API_VARIABLE}
DEFAULT_API = "https://api.telegram.org"
HIDDEN_TOKEN = "***"
NO_TOKEN = (
    f"Telegram has no bot token: make a bot with BotFather (@BotFather in Telegram: /newbot) and "
    f'give its token as {TOKEN_VARIABLE}, or as "token" in the "telegram" section of the '
    "settings file"
)
NOT_LINKED = (
    f"Telegram is not linked to a chat: run `provide-choice telegram link` and send /start to "
    f"the bot (or set {CHAT_VARIABLE})"
)


@dataclass(frozen=True)
class TelegramConfig:
    """The bot (`token`), the person's chat (`chat_id`) and the Bot API server (`api_url`)."""

    token: str | None
    chat_id: int | str | None
    api_url: str = DEFAULT_API

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None) -> TelegramConfig:
        """From the settings file's `telegram` section, the environment winning."""
        values = plugin_settings(SECTION, VARIABLES, environ=environ)
        token = _text(values.get("token"))
        api = _text(values.get("api_url")) or DEFAULT_API
        return cls(token, _chat(values.get("chat_id")), api.rstrip("/"))

    @property
    def problem(self) -> str | None:
        """What keeps the bot from asking in the chat; None once it can."""
        if self.token is None:
            return NO_TOKEN
        if self.chat_id is None:
            return NOT_LINKED
        return None

    def address(self, method: str) -> str:
        """Where a Bot API method is called: `{api_url}/bot{token}/{method}`."""
        return f"{self.api_url}/bot{self.token}/{method}"

    def hidden(self, text: str) -> str:
        """`text` with the token as `***` wherever it appears (an address: `bot***`)."""
        return text.replace(self.token, HIDDEN_TOKEN) if self.token else text


def _text(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    return text or None


def _chat(value: Any) -> int | str | None:
    """A chat id as the Bot API takes it: a number (private chats, groups), or `@channel`."""
    text = _text(value)
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text
