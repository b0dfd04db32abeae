"""Slack: every question in a Slack channel (or a direct message) too, answered with its buttons,
boxes and text field, from anywhere (the `slack` extra; a plug-in on the public transport seam).

Set up once: a Slack app with Socket Mode on (the README's manifest), its bot token
(`PROVIDE_CHOICE_SLACK_BOT_TOKEN`, `xoxb-...`), its app-level token
(`PROVIDE_CHOICE_SLACK_APP_TOKEN`, `xapp-...`) and the channel (`PROVIDE_CHOICE_SLACK_CHANNEL`).
From then on `slack` is an alert channel (every question asked anywhere is also posted there) and
a transport (`transport: "slack"` asks there alone). It imports only `provide_choice.transports`,
`present_choices`, the standard library, httpx and websockets.

Why httpx and websockets rather than slack_sdk: the app needs four Web API methods (httpx, which
the base install has already, speaks them in a few lines, as for Telegram) and the Socket Mode
protocol (a WebSocket that says hello, sends envelopes to ack, and may ask to reconnect: a loop of
forty lines). slack_sdk's asyncio clients need aiohttp, and its one dependency-free Socket Mode
client is threaded and synchronous, foreign to the server's event loop; websockets is asyncio
from the ground up, pure Python with optional speed-ups, with no dependencies of its own.
"""

from provide_choice.slack._transport import SlackTransport

__all__ = ["SlackTransport"]
