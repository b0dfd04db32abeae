"""The bot's updates, by long polling: `getUpdates` held open by Telegram until something
happens (a press, a message) or `LONG_POLL_SECONDS` pass. No webhook, so no public address: the
bot reaches out, nothing reaches in.

It polls while it has something to hear about (`wanted`: a question open in the chat, or one
ended a short while ago, whose late presses get "This question has ended"), and stops then:
another provide-choice on the same bot may poll in its turn. Each update is confirmed by the next
poll's `offset` once handled. Telegram away is tried again with growing pauses, said once
(`Chat`); the questions wait meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from provide_choice.telegram._api import Refused, Unreachable
from provide_choice.telegram._chat import Chat
from provide_choice.transports import backoff

LONG_POLL_SECONDS = 25
"""How long Telegram may hold a `getUpdates` (it answers at once when an update is there)."""
ALLOWED_UPDATES = ["message", "callback_query"]

Update = dict[str, Any]


class Updates:
    """Polls for `chat`'s bot while `wanted()`, handing each update to `handle`."""

    def __init__(
        self,
        chat: Chat,
        handle: Callable[[Update], Awaitable[None]],
        wanted: Callable[[], bool],
    ) -> None:
        self.chat = chat
        self.handle = handle
        self.wanted = wanted
        self.offset: int | None = None
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Poll, unless it already does."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._poll())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _poll(self) -> None:
        attempt = 0
        while self.wanted():
            params: dict[str, Any] = {
                "timeout": LONG_POLL_SECONDS,
                "allowed_updates": ALLOWED_UPDATES,
            }
            if self.offset is not None:
                params["offset"] = self.offset
            try:
                updates = await self.chat.call("getUpdates", params, wait=LONG_POLL_SECONDS)
            except (Unreachable, Refused):
                await asyncio.sleep(backoff(attempt))
                attempt += 1
                continue
            attempt = 0
            for update in updates or ():
                self.offset = int(update["update_id"]) + 1
                await self.handle(update)
