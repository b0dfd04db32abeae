"""Slack as a transport: a question asked there (`transport: "slack"`), and every question asked
anywhere else too (`mirror`, the `slack` alert channel), in the configured channel or DM.

It is built only once it is set up (two tokens and a channel: `_config`), and talks to the Web
API (`_web_api`: three methods to show and end questions) and Socket Mode (`_socket_mode`: the
presses, over a WebSocket it opens itself; no public address). Each question shown is a
`Conversation`; an action finds its conversation by the message it is on. When `allowed_users`
is set, anyone else who presses gets "Not yours to answer", ephemerally, and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from present_choices._translation import N_
from provide_choice.slack._config import SlackConfig
from provide_choice.transports import ChatTransport, Followed, TransportKind

if TYPE_CHECKING:
    from provide_choice.slack._conversation import Conversation, Payload
    from provide_choice.transports import Alerts, PendingQuestion, TransportSetup

NAME = "slack"
NOT_YOURS = "Not yours to answer"


class SlackTransport(ChatTransport[str, "Conversation"]):
    """Asks in the configured Slack channel, with buttons, and follows every question there."""

    kind = TransportKind(
        NAME,
        N_("The Slack channel"),
        preference=N_("Slack (the configured channel)"),
        missing=(
            "Slack is not set up on this server: give the app's tokens "
            "(PROVIDE_CHOICE_SLACK_BOT_TOKEN, PROVIDE_CHOICE_SLACK_APP_TOKEN) and the channel "
            "(PROVIDE_CHOICE_SLACK_CHANNEL)"
        ),
        inbox=N_("Shown in Slack"),
        answer_where=N_("in Slack"),
        batches=True,
    )
    # Marked for the catalog: every surface says them in the person's language.
    mirror_label = N_("In Slack (the configured channel, where it can be answered too)")
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, config: SlackConfig, alerts: Alerts) -> None:
        # Deferred for start-up time: a server where Slack is not set up never builds this
        # transport, and loads none of what talks to Slack.
        from provide_choice.slack._channel import Channel
        from provide_choice.slack._socket_mode import SocketMode

        self.config = config
        self.channel = Channel(config, alerts)
        self.followed: Followed[str, Conversation] = Followed()
        self.socket = SocketMode(self.channel, self._acted, self.followed.wanted)

    @classmethod
    def build(cls, setup: TransportSetup) -> SlackTransport | None:
        config = SlackConfig.read()
        return None if config.problem is not None else cls(config, setup.alerts)

    def _conversation(self, question: PendingQuestion) -> Conversation:
        from provide_choice.slack._conversation import Conversation

        return Conversation(question, self.channel, NAME, self.followed.known)

    def _wake(self) -> None:
        self.socket.wake()

    async def _stop(self) -> None:
        await self.socket.stop()
        await self.channel.api.aclose()

    async def _acted(self, payload: Payload) -> None:
        """A `block_actions` payload: someone pressed, ticked or picked in a message."""
        from provide_choice.slack._conversation import ENDED, who
        from provide_choice.slack._mrkdwn import escaped

        if payload.get("type") != "block_actions":
            return
        user, _person = who(payload)
        container = payload.get("container") or {}
        channel = str(container.get("channel_id") or (payload.get("channel") or {}).get("id") or "")
        if not self.config.may_answer(user):
            await self.channel.tell(user, escaped(NOT_YOURS), channel or None)
            return
        ts = str(container.get("message_ts") or "")
        conversation = await self.followed.of(ts)
        said = ENDED if conversation is None else await conversation.acted(ts, payload)
        if said:
            await self.channel.tell(user, escaped(said), channel or None)
