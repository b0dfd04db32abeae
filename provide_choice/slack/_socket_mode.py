"""Socket Mode: the app connects out to Slack over a WebSocket and hears of every button pressed
there, so it needs no public address (nothing reaches in).

`apps.connections.open`, with the app-level token, names the address to connect to; Slack then
says `{"type": "hello"}` and sends envelopes (`{"envelope_id", "type": "interactive", "payload"}`),
each of which the app acks at once by sending back `{"envelope_id"}` (an envelope not acked
within 3 seconds is sent again, and Slack shows the person an error). `{"type": "disconnect"}`
asks the app to connect again (Slack is about to close this connection): it opens a new one at
once. A connection dropped without it (a network blip, Slack away) is opened again with growing
pauses, said once on stderr for the whole outage (`Channel.failed`).

It stays connected while it has something to hear about (`wanted`: a question open, or one ended
a short while ago, whose late presses get "This question has ended"), and closes then.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from provide_choice.slack._channel import Channel
from provide_choice.slack._web_api import Refused, Unreachable, said
from provide_choice.transports import backoff

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

Payload = dict[str, Any]
OPEN_SECONDS = 10.0
IDLE_CHECK_SECONDS = 5.0
"""How often a quiet connection checks whether it is still wanted."""


class SocketMode:
    """Listens for `channel`'s app while `wanted()`, handing each interactive payload to
    `handle` (in a task of its own: the next envelope is acked meanwhile)."""

    def __init__(
        self,
        channel: Channel,
        handle: Callable[[Payload], Coroutine[Any, Any, None]],
        wanted: Callable[[], bool],
    ) -> None:
        self.channel = channel
        self.handle = handle
        self.wanted = wanted
        self.connections = 0
        """Connections opened (each answered `hello`)."""
        self._task: asyncio.Task[None] | None = None
        self._handling: set[asyncio.Task[None]] = set()

    def wake(self) -> None:
        """Connect, unless it already is (or is trying to)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._handling:
            await asyncio.gather(*self._handling, return_exceptions=True)

    async def _run(self) -> None:
        # Deferred for start-up time, as httpx is: websockets loads once the app first connects.
        import websockets

        attempt = 0
        while self.wanted():
            try:
                answer = await self.channel.call("apps.connections.open", {}, app=True)
                async with websockets.connect(
                    str(answer["url"]), open_timeout=OPEN_SECONDS, compression=None
                ) as socket:
                    await self._listen(socket)
                attempt = 0
                continue  # asked to reconnect, or no longer wanted
            except (Unreachable, Refused):
                pass  # said by the channel
            except (OSError, TimeoutError, websockets.WebSocketException) as dropped:
                self.channel.outage.failed(
                    f"Slack cannot be reached (Socket Mode: {said(dropped)}); trying again, "
                    "with growing pauses"
                )
            await asyncio.sleep(backoff(attempt))
            attempt += 1

    async def _listen(self, socket: ClientConnection) -> None:
        """Read envelopes until Slack asks to reconnect, or nothing is wanted any more. A
        connection that ends otherwise raises (`ConnectionClosed`)."""
        while self.wanted():
            try:
                data = await asyncio.wait_for(socket.recv(), IDLE_CHECK_SECONDS)
            except TimeoutError:
                continue
            try:
                message = json.loads(data)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            kind = message.get("type")
            if kind == "hello":
                self.connections += 1
                self.channel.outage.back()
            elif kind == "disconnect":
                return
            envelope_id = message.get("envelope_id")
            if envelope_id:
                await socket.send(json.dumps({"envelope_id": envelope_id}))
            payload = message.get("payload")
            if kind == "interactive" and isinstance(payload, dict):
                self._spawn(payload)

    def _spawn(self, payload: Payload) -> None:
        task = asyncio.get_running_loop().create_task(self.handle(payload))
        self._handling.add(task)
        task.add_done_callback(self._handling.discard)
