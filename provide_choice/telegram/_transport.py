"""Telegram as a transport: a question asked there (`transport: "telegram"`), and every question
asked anywhere else too (`mirror`, the `telegram` alert channel), in the linked chat.

It is built only once it is set up (a token and a linked chat: `_config`), and talks to the Bot
API alone (`_api`): five methods, long polling, no public address. Each question shown is a
`Conversation`; an update finds its conversation by the message it is on. Only the linked chat
answers: a press from any other gets "Not yours to answer", and its messages are ignored.
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from present_choices._translation import N_
from provide_choice.telegram._api import BotApi, Refused, Unreachable
from provide_choice.telegram._config import TelegramConfig
from provide_choice.telegram._html import escaped
from provide_choice.telegram._link import LINK_COMMAND, LINKED
from provide_choice.transports import ChatTransport, Followed, TransportKind

if TYPE_CHECKING:
    from provide_choice.telegram._conversation import Conversation
    from provide_choice.telegram._updates import Update
    from provide_choice.transports import Alerts, PendingQuestion, TransportSetup

NAME = "telegram"
NOT_YOURS = "Not yours to answer"
HOW_TO_ANSWER = (
    "To answer in words, reply to the question's message (swipe it, or touch it and choose "
    "Reply); or use its buttons."
)
LATE_SECONDS = 120.0
"""How long the bot still hears presses after its last question ended (they get "This question
has ended"), before it stops polling."""


class TelegramTransport(ChatTransport[int, "Conversation"]):
    """Asks in the linked Telegram chat, with buttons, and follows every question there."""

    kind = TransportKind(
        NAME,
        N_("The linked Telegram chat"),
        preference=N_("Telegram (the linked chat)"),
        missing=(
            "Telegram is not set up on this server: give the bot's token "
            "(PROVIDE_CHOICE_TELEGRAM_TOKEN) and link a chat (`provide-choice telegram link`)"
        ),
        inbox=N_("Shown in Telegram"),
        answer_where=N_("in Telegram"),
        batches=True,
    )
    # Marked for the catalog: every surface says them in the person's language.
    mirror_label = N_("In Telegram (the linked chat, where it can be answered too)")
    cancelled_with_the_call = True
    bounded_wait = True
    command = LINK_COMMAND

    def __init__(self, config: TelegramConfig, alerts: Alerts) -> None:
        assert config.chat_id is not None
        # Deferred for start-up time: a server where Telegram is not set up never builds this
        # transport, and loads none of what follows its questions there.
        from provide_choice.telegram._chat import Chat
        from provide_choice.telegram._updates import Updates

        self.chat = Chat(BotApi(config), config.chat_id, alerts)
        self.followed: Followed[int, Conversation] = Followed(LATE_SECONDS)
        self.updates = Updates(self.chat, self._handle, self.followed.wanted)

    @classmethod
    def build(cls, setup: TransportSetup) -> TelegramTransport | None:
        config = TelegramConfig.read()
        return None if config.problem is not None else cls(config, setup.alerts)

    def _conversation(self, question: PendingQuestion) -> Conversation:
        from provide_choice.telegram._conversation import Conversation

        return Conversation(question, self.chat, NAME, self.followed.known)

    def _wake(self) -> None:
        self.updates.wake()

    async def _stop(self) -> None:
        await self.updates.stop()
        await self.chat.api.aclose()

    async def _handle(self, update: Update) -> None:
        press = update.get("callback_query")
        if isinstance(press, dict):
            await self._pressed(press)
            return
        message = update.get("message")
        if isinstance(message, dict) and self.chat.is_linked(message.get("chat")):
            await self._said(message)

    async def _pressed(self, press: dict[str, Any]) -> None:
        from provide_choice.telegram._conversation import ENDED, SENT

        message = press.get("message") or {}
        if not self.chat.is_linked(message.get("chat")):
            await self.chat.answer(str(press.get("id")), NOT_YOURS)
            return
        conversation = await self._conversation_of(message)
        if conversation is None:
            toast = ENDED
        else:
            toast = await conversation.pressed(message["message_id"], str(press.get("data") or ""))
            if toast == SENT:  # the answer goes out to the agent first
                await asyncio.sleep(conversation.follow_up_seconds)
        await self.chat.answer(str(press.get("id")), toast)

    async def _conversation_of(self, message: dict[str, Any]) -> Conversation | None:
        """The conversation a message of the bot's belongs to."""
        return await self.followed.of(int(message.get("message_id") or 0))

    async def _said(self, message: dict[str, Any]) -> None:
        """A message in the linked chat: a reply to a question's message answers it."""
        from provide_choice.telegram._conversation import ENDED

        text = message.get("text")
        if not isinstance(text, str):
            return
        replied_to = message.get("reply_to_message") or {}
        if replied_to:
            conversation = await self._conversation_of(replied_to)
            said = (
                ENDED
                if conversation is None
                else await conversation.replied(int(replied_to["message_id"]), text)
            )
        elif text.split("@")[0].strip() == "/start":
            said = LINKED
        else:
            said = HOW_TO_ANSWER if self.followed.open() else None
        if said:
            with suppress(Unreachable, Refused):  # said once already, by the chat
                await self.chat.send(escaped(said), reply_to=int(message["message_id"]))
