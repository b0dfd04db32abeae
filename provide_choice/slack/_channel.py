"""The channel (or direct message) questions go to, as the app talks to it: the three calls that
show and end questions, and what it said of failures.

Slack away is said once for the whole time it is away, not once per try: the first call (or
connection) that fails says it on stderr, through the alerts' one path for warnings, and the first
that works again ends it. A refusal that waiting will not end (a token Slack does not know, a
channel the app is not in) is said once too, until a call works again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from provide_choice.slack._config import SlackConfig
from provide_choice.slack._web_api import Refused, Unreachable, WebApi
from provide_choice.transports import Alerts

BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""How long to wait before trying again, one step further after each failure (the last repeats)."""


def backoff(attempt: int) -> float:
    return BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)]


class Channel:
    """The app's calls to the person's channel (`config.channel`), and what it said of failures.
    Posting to a user id opens the app's direct messages with them: `posted_in` is the channel
    Slack answered with, where the messages are edited."""

    def __init__(self, config: SlackConfig, alerts: Alerts) -> None:
        assert config.channel is not None
        self.config = config
        self.api = WebApi(config)
        self.alerts = alerts
        self.posted_in = config.channel
        self._said: str | None = None
        """The failure said on stderr and not over yet."""

    async def call(self, method: str, params: dict[str, Any], *, app: bool = False) -> Any:
        """Call `method`; a failure is said (once for as long as it lasts) and raised."""
        try:
            answer = await self.api.call(method, params, app=app)
        except Unreachable as away:
            self.failed(f"Slack cannot be reached ({away}); trying again, with growing pauses")
            raise
        except Refused as refused:
            self.failed(f"Slack refused {refused}; trying again later")
            raise
        self.back()
        return answer

    def failed(self, line: str) -> None:
        """Say `line` on stderr, unless a failure of the same kind was said and is not over."""
        if self._said is None or not line.startswith(self._said.split(" (")[0]):
            self.alerts.warn(line)
        self._said = line

    def back(self) -> None:
        """Slack answered: an outage said is over."""
        self._said = None

    async def post(self, text: str, blocks: list[dict[str, Any]]) -> str:
        """Post a message: its `ts`."""
        params = {"channel": self.config.channel, "text": text, "blocks": blocks}
        answer = await self.call("chat.postMessage", params)
        self.posted_in = str(answer.get("channel") or self.posted_in)
        return str(answer["ts"])

    async def update(self, ts: str, text: str, blocks: list[dict[str, Any]]) -> None:
        params = {"channel": self.posted_in, "ts": ts, "text": text, "blocks": blocks}
        await self.call("chat.update", params)

    async def tell(self, user: str, text: str, channel: str | None = None) -> None:
        """An ephemeral message: `text` (mrkdwn, escaped) seen by `user` alone, where they
        pressed (`channel`). Losing it loses a hint only: a failure is said, not raised."""
        params = {"channel": channel or self.posted_in, "user": user, "text": text}
        with suppress(Unreachable, Refused):
            await self.call("chat.postEphemeral", params)

    async def update_at_last(self, edits: list[tuple[str, str, list[Any]]], seconds: float) -> None:
        """Apply each edit (`ts`, text, blocks), trying again while Slack is away, for
        `seconds` at most; one Slack refuses (a message deleted meanwhile) is left."""
        give_up = time.monotonic() + seconds
        for ts, text, blocks in edits:
            attempt = 0
            while True:
                try:
                    await self.update(ts, text, blocks)
                    break
                except Refused:
                    break
                except Unreachable:
                    if time.monotonic() + backoff(attempt) > give_up:
                        return
                    await asyncio.sleep(backoff(attempt))
                    attempt += 1


async def sent_at_last(
    send: Callable[[], Awaitable[None]],
    stop: asyncio.Event,
    failed: Callable[[Exception], None],
) -> None:
    """Call `send` until it works or `stop` is set, pausing longer after each failure (`failed`
    hears of each)."""
    attempt = 0
    while not stop.is_set():
        try:
            await send()
            return
        except (Unreachable, Refused) as failure:
            failed(failure)
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), backoff(attempt))
        attempt += 1
