"""What every two-way chat's transport (Telegram, Slack, one written elsewhere) does with the
questions it follows, whichever service it talks to: each question it is asked to show, and each
one asked anywhere else while it still waits (`mirror`: the chat is an alert channel too), becomes
one conversation in the chat (a `ChatConversation`), kept in `followed`, where a press or a reply
finds it by its message; the chat's listener (long polling, a socket) is woken for it, and stops
once nothing is followed. On closing, the endings' messages go out before it stops."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, TypeVar

from provide_choice._transports._chats import ChatConversation, Followed, Key

if TYPE_CHECKING:
    from provide_choice._question import PendingQuestion
    from provide_choice._transports._base import Caller

Conversation = TypeVar("Conversation", bound=ChatConversation)


class ChatTransport(ABC, Generic[Key, Conversation]):
    """A transport that asks in a chat and follows every question there. A subclass sets
    `followed` and writes `_conversation` (the service's conversation of a question), `_wake`
    (listen: there is a question to hear of) and `_stop` (stop listening, close the service's
    client); it adds its `kind` and `build`, and how it handles what the chat says."""

    followed: Followed[Key, Conversation]

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        self._follow(question)

    async def mirror(self, question: PendingQuestion) -> None:
        if question.outcome is None:
            self._follow(question)

    async def aclose(self) -> None:
        """Let the endings' messages go out (bounded by the caller), then stop."""
        await self.followed.settled()
        await self._stop()

    def _follow(self, question: PendingQuestion) -> None:
        conversation = self._conversation(question)
        self.followed.add(conversation)
        conversation.start()
        self._wake()

    @abstractmethod
    def _conversation(self, question: PendingQuestion) -> Conversation:
        """The conversation that follows `question` in this chat, not started yet."""

    @abstractmethod
    def _wake(self) -> None:
        """Listen to the chat, if not listening yet: a question waits to be heard of."""

    @abstractmethod
    async def _stop(self) -> None:
        """Stop listening, and close the service's client."""
