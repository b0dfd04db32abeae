"""Slack's Web API, spoken with httpx: `POST {api_url}{method}` with a JSON body and the token as
`Authorization: Bearer`, answered `{"ok": true, ...}` or `{"ok": false, "error": ...}`.

Two kinds of failure, because they call for different things: `Unreachable` (no connection, a
timeout, a server error, a rate limit) passes, and the call is tried again later; `Refused`
(`invalid_auth`, `channel_not_found`, `not_in_channel`, `invalid_blocks`, ...) will not pass by
waiting, and is said as it is. The tokens go in a header only, never in an address, so no log
line holds one; a message that could (an error's text) goes through `hidden` first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from provide_choice.slack._config import SlackConfig

if TYPE_CHECKING:
    import httpx

REQUEST_SECONDS = 10.0
PASSING = frozenset({"ratelimited", "internal_error", "fatal_error", "service_unavailable"})
"""Errors Slack answers while it is in trouble: tried again, as for no answer at all."""


class Unreachable(Exception):
    """Slack cannot be reached now; the message says why (never a token)."""


class Refused(Exception):
    """Slack refused the call; `error` is its own code (`channel_not_found`)."""

    def __init__(self, method: str, error: str) -> None:
        super().__init__(f"{method}: {error}")
        self.method = method
        self.error = error


class WebApi:
    """The app's Web API calls (`config`), over one connection pool opened on the first call."""

    def __init__(self, config: SlackConfig) -> None:
        self.config = config
        self._client: httpx.AsyncClient | None = None

    async def call(self, method: str, params: dict[str, Any], *, app: bool = False) -> Any:
        """Call `method` with `params`, with the bot token (the app-level token with `app`):
        Slack's answer. Raises `Unreachable` or `Refused`."""
        # Deferred for start-up time: httpx loads once the app first talks to Slack, so a server
        # with the plug-in installed (set up or not) starts as fast as one without.
        import httpx

        token = self.config.app_token if app else self.config.bot_token
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=REQUEST_SECONDS)
        try:
            response = await self._client.post(
                self.config.api_url + method,
                json=params,
                headers={"Authorization": f"Bearer {token}"},
            )
        except httpx.HTTPError as error:
            raise Unreachable(self.config.hidden(said(error))) from None
        if response.status_code == 429 or response.status_code >= 500:
            raise Unreachable(f"HTTP {response.status_code} from {method}")
        try:
            answer = response.json()
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise Unreachable(f"HTTP {response.status_code} without Slack's answer to {method}")
        if answer.get("ok") is True:
            return answer
        code = self.config.hidden(str(answer.get("error") or "no error given"))
        if code in PASSING:
            raise Unreachable(f"{method}: {code}")
        raise Refused(method, code)

    async def aclose(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


def said(error: Exception) -> str:
    """A failure in a few words, without its request."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
