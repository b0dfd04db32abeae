"""Slack as a transport: a question asked there (`transport: "slack"`), and every question asked
anywhere else too (`mirror`, the `slack` alert channel), in the configured channel or DM.

It is built only once it is set up (two tokens and a channel: `_config`), and talks to the Web
API (`_web_api`: three methods to show and end questions) and Socket Mode (`_socket_mode`: the
presses, over a WebSocket it opens itself; no public address). Each question shown is a
`Conversation`; an action finds its conversation by the message it is on. When `allowed_users`
is set, anyone else who presses gets "Not yours to answer", ephemerally, and nothing changes.
"""

from __future__ import annotations

import asyncio
import time

from provide_choice.slack._channel import Channel
from provide_choice.slack._config import SlackConfig
from provide_choice.slack._conversation import ENDED, Conversation, Payload, who
from provide_choice.slack._mrkdwn import escaped
from provide_choice.slack._socket_mode import SocketMode
from provide_choice.transports import (
    Alerts,
    Caller,
    PendingQuestion,
    TransportKind,
    TransportSetup,
)

NAME = "slack"
NOT_YOURS = "Not yours to answer"
LATE_SECONDS = 120.0
"""How long the app still listens after its last question ended (late presses get "This
question has ended"), before it closes its connection."""


class SlackTransport:
    """Asks in the configured Slack channel, with buttons, and follows every question there."""

    kind = TransportKind(
        NAME,
        "The Slack channel",
        preference="Slack (the configured channel)",
        missing=(
            "Slack is not set up on this server: give the app's tokens "
            "(PROVIDE_CHOICE_SLACK_BOT_TOKEN, PROVIDE_CHOICE_SLACK_APP_TOKEN) and the channel "
            "(PROVIDE_CHOICE_SLACK_CHANNEL)"
        ),
        inbox="Shown in Slack",
        answer_where="in Slack",
        batches=True,
    )
    mirror_label = "In Slack (the configured channel, where it can be answered too)"
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, config: SlackConfig, alerts: Alerts) -> None:
        self.config = config
        self.channel = Channel(config, alerts)
        self.socket = SocketMode(self.channel, self._acted, self._wanted)
        self._by_message: dict[str, Conversation] = {}
        self._conversations: list[Conversation] = []

    @classmethod
    def build(cls, setup: TransportSetup) -> SlackTransport | None:
        config = SlackConfig.read()
        return None if config.problem is not None else cls(config, setup.alerts)

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        self._follow(question)

    async def mirror(self, question: PendingQuestion) -> None:
        if question.outcome is None:
            self._follow(question)

    async def aclose(self) -> None:
        """Let the endings' updates go out (bounded by the caller), then stop."""
        await asyncio.gather(*(conversation.settled() for conversation in self._conversations))
        await self.socket.stop()
        await self.channel.api.aclose()

    def _follow(self, question: PendingQuestion) -> None:
        conversation = Conversation(question, self.channel, NAME, self._by_message.__setitem__)
        self._conversations.append(conversation)
        conversation.start()
        self.socket.wake()

    def _wanted(self) -> bool:
        """Whether to stay connected: a question open, or one ended within `LATE_SECONDS`. The
        conversations ended before that are forgotten (an action on them ends as on any other
        message: "This question has ended")."""
        now = time.monotonic()
        kept = [
            c for c in self._conversations if c.finished is None or now - c.finished < LATE_SECONDS
        ]
        if len(kept) < len(self._conversations):
            self._conversations = kept
            self._by_message = {ts: c for ts, c in self._by_message.items() if c in kept}
        return bool(kept)

    async def _acted(self, payload: Payload) -> None:
        """A `block_actions` payload: someone pressed, ticked or picked in a message."""
        if payload.get("type") != "block_actions":
            return
        user, _person = who(payload)
        container = payload.get("container") or {}
        channel = str(container.get("channel_id") or (payload.get("channel") or {}).get("id") or "")
        if not self.config.may_answer(user):
            await self.channel.tell(user, escaped(NOT_YOURS), channel or None)
            return
        ts = str(container.get("message_ts") or "")
        conversation = await self._conversation_of(ts)
        said = ENDED if conversation is None else await conversation.acted(ts, payload)
        if said:
            await self.channel.tell(user, escaped(said), channel or None)

    async def _conversation_of(self, ts: str) -> Conversation | None:
        """The conversation a message of the app's belongs to. A message being posted right
        now is known once its posting returns: an action on it may come first."""
        if ts not in self._by_message:
            for conversation in list(self._conversations):
                await conversation.quiet()
        return self._by_message.get(ts)
