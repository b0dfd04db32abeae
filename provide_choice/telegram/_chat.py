"""The linked chat, as the bot talks to it: the four calls that show and end questions, and
whether Telegram can be reached now.

Telegram away is said once for the whole time it is away, not once per try: the first call that
fails says it on stderr (through the alerts' one path for warnings), and the first that works
again ends it. A refusal that waiting will not end (a token Telegram does not know, a chat the
bot may not write to) is said once too, until a call works again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

from provide_choice.telegram._api import BotApi, Refused, Unreachable
from provide_choice.transports import Alerts, OutageNotice, tried_for

NOT_MODIFIED = "message is not modified"
FAILURES = (Unreachable, Refused)


class Chat:
    """The bot's calls to the person's chat (`chat_id`), and what it said of failures."""

    def __init__(self, api: BotApi, chat_id: int | str, alerts: Alerts) -> None:
        self.api = api
        self.chat_id = chat_id
        self.alerts = alerts
        self.outage = OutageNotice(alerts)

    def is_linked(self, chat: Any) -> bool:
        """Whether an update's chat (`{"id": ..., "username": ...}`) is the linked one."""
        if not isinstance(chat, dict):
            return False
        ids = {str(chat.get("id")), f"@{chat.get('username')}"}
        return str(self.chat_id) in ids

    async def call(self, method: str, params: dict[str, Any], *, wait: float = 0.0) -> Any:
        """Call `method`; a failure is said (once for as long as it lasts) and raised."""
        try:
            result = await self.api.call(method, params, wait=wait)
        except Unreachable as away:
            self.outage.failed(
                f"Telegram cannot be reached ({away}); trying again, with growing pauses"
            )
            raise
        except Refused as refused:
            if NOT_MODIFIED not in refused.description:
                self.outage.failed(f"Telegram refused {method} ({refused}); trying again later")
            raise
        self.outage.back()
        return result

    async def send(
        self, text: str, markup: dict[str, Any] | None = None, reply_to: int | None = None
    ) -> int:
        """Send an HTML message: its id."""
        params: dict[str, Any] = {"chat_id": self.chat_id, "text": text, "parse_mode": "HTML"}
        if markup is not None:
            params["reply_markup"] = markup
        if reply_to is not None:
            params["reply_parameters"] = {
                "message_id": reply_to,
                "allow_sending_without_reply": True,
            }
        sent = await self.call("sendMessage", params)
        return int(sent["message_id"])

    async def edit(self, message_id: int, text: str, markup: dict[str, Any] | None = None) -> None:
        """Replace a message's text (and its buttons: none without `markup`); an edit that
        changes nothing is no failure."""
        params: dict[str, Any] = {
            "chat_id": self.chat_id,
            "message_id": message_id,
            "text": text,
            "parse_mode": "HTML",
        }
        if markup is not None:
            params["reply_markup"] = markup
        await self._edit("editMessageText", params)

    async def edit_buttons(self, message_id: int, markup: dict[str, Any]) -> None:
        params = {"chat_id": self.chat_id, "message_id": message_id, "reply_markup": markup}
        await self._edit("editMessageReplyMarkup", params)

    async def answer(self, press_id: str, text: str = "") -> None:
        """End the spinner of a pressed button, showing `text` (a toast) when there is one."""
        params: dict[str, Any] = {"callback_query_id": press_id}
        if text:
            params["text"] = text
        with suppress(Unreachable, Refused):  # the press is handled; only its toast is lost
            await self.call("answerCallbackQuery", params)

    async def edit_at_last(self, edits: list[tuple[int, str]], seconds: float) -> None:
        """Replace each message's text (leaving it without buttons), trying again while Telegram
        is away, for `seconds` at most; one Telegram refuses (deleted by the person) is left."""

        def edit(message_id: int, text: str) -> Callable[[], Awaitable[None]]:
            return lambda: self.edit(message_id, text)

        tries = [edit(message_id, text) for message_id, text in edits]
        await tried_for(seconds, tries, passing=(Unreachable,), final=(Refused,))

    async def _edit(self, method: str, params: dict[str, Any]) -> None:
        try:
            await self.call(method, params)
        except Refused as refused:
            if NOT_MODIFIED not in refused.description:
                raise
