"""The Bot API, spoken with httpx: `POST {api_url}/bot{token}/{method}` with a JSON body, answered
`{"ok": true, "result": ...}` or `{"ok": false, "error_code", "description"}`.

Two kinds of failure, because they call for different things: `Unreachable` (no connection, a
timeout, a server error, "too many requests") passes, and the call is tried again later;
`Refused` (a 4xx: a wrong token, a chat the bot cannot write to, text Telegram cannot parse) will
not pass by waiting, and is said as it is. Neither ever shows the token: the address is the only
place it goes, and httpx's own log line of each request is rewritten with `bot***` (`_HiddenToken`).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

from provide_choice.telegram._config import TelegramConfig

if TYPE_CHECKING:
    import httpx

REQUEST_SECONDS = 10.0
"""How long a call may take, beyond the long poll's own wait."""
BOT_ADDRESS = re.compile(r"/bot[^/\s]+/")


class Unreachable(Exception):
    """The Bot API cannot be reached now; the message says why (never the token)."""


class Refused(Exception):
    """The Bot API refused the call; `code` and `description` are its own words."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(f"{code}: {description}")
        self.code = code
        self.description = description


class _HiddenToken(logging.Filter):
    """httpx logs each request with its address: the token is written `bot***` there."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/bot" in message:
            record.msg, record.args = BOT_ADDRESS.sub("/bot***/", message), ()
        return True


logging.getLogger("httpx").addFilter(_HiddenToken())


class BotApi:
    """One bot's calls (`config`), over one connection pool opened on the first call."""

    def __init__(self, config: TelegramConfig) -> None:
        self.config = config
        self._client: httpx.AsyncClient | None = None

    async def call(self, method: str, params: dict[str, Any], *, wait: float = 0.0) -> Any:
        """Call `method` with `params`: its `result`. `wait` is how long the server may hold the
        request (a long poll's `timeout`). Raises `Unreachable` or `Refused`."""
        # Deferred for start-up time: httpx loads once the bot first talks to Telegram, so a
        # server with the plug-in installed (set up or not) starts as fast as one without.
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient()
        try:
            response = await self._client.post(
                self.config.address(method), json=params, timeout=REQUEST_SECONDS + wait
            )
        except httpx.HTTPError as error:
            raise Unreachable(self.config.hidden(_said(error))) from None
        try:
            answer = response.json()
        except ValueError:
            raise Unreachable(f"HTTP {response.status_code} without the Bot API's answer") from None
        if not isinstance(answer, dict):
            raise Unreachable(f"HTTP {response.status_code} without the Bot API's answer")
        if answer.get("ok") is True:
            return answer.get("result")
        code = int(answer.get("error_code") or response.status_code)
        description = self.config.hidden(str(answer.get("description") or "no description"))
        if code >= 500 or code == 429:
            raise Unreachable(f"{code}: {description}")
        raise Refused(code, description)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


def _said(error: httpx.HTTPError) -> str:
    """An httpx failure in a few words, without its request (whose address holds the token)."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
