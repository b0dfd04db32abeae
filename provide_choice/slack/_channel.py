"""The channel (or direct message) questions go to, as the app talks to it: the three calls that
show and end questions, and what it said of failures.

Slack away is said once for the whole time it is away, not once per try: the first call (or
connection) that fails says it on stderr, through the alerts' one path for warnings, and the first
that works again ends it. A refusal that waiting will not end (a token Slack does not know, a
channel the app is not in) is said once too, until a call works again.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from provide_choice.slack._config import SlackConfig
from provide_choice.slack._web_api import Refused, Unreachable, WebApi
from provide_choice.transports import Alerts, OutageNotice, tried_for

FAILURES = (Unreachable, Refused)


class Channel:
    """The app's calls to the person's channel (`config.channel`), and what it said of failures.
    Posting to a user id opens the app's direct messages with them: `posted_in` is the channel
    Slack answered with, where the messages are edited."""

    def __init__(self, config: SlackConfig, alerts: Alerts) -> None:
        assert config.channel is not None
        self.config = config
        self.api = WebApi(config)
        self.alerts = alerts
        self.outage = OutageNotice(alerts)
        self.posted_in = config.channel

    async def call(self, method: str, params: dict[str, Any], *, app: bool = False) -> Any:
        """Call `method`; a failure is said (once for as long as it lasts) and raised."""
        try:
            answer = await self.api.call(method, params, app=app)
        except Unreachable as away:
            self.outage.failed(
                f"Slack cannot be reached ({away}); trying again, with growing pauses"
            )
            raise
        except Refused as refused:
            self.outage.failed(f"Slack refused {refused}; trying again later")
            raise
        self.outage.back()
        return answer

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
        with suppress(*FAILURES):
            await self.call("chat.postEphemeral", params)

    async def update_at_last(self, ts: str, text: str, blocks: list[Any], seconds: float) -> None:
        """Update a message, trying again while Slack is away, for `seconds` at most; one Slack
        refuses (deleted meanwhile) is left."""

        async def update() -> None:
            await self.update(ts, text, blocks)

        await tried_for(seconds, [update], passing=(Unreachable,), final=(Refused,))
