"""Where a conversation is kept: the `ConversationStore` protocol, and `ListStore`, a list of yours.

A store keeps one conversation's messages in order, as plain JSON, and is only ever asked for small
changes: add one message at the end, replace one message (the reply that streams, or one marked cut
off), or forget them all. It never rewrites the conversation, so a change costs the same at 10,000
messages as at 10. The block states are not stored: they follow from the messages (see
`chat_ui._model`).

Every method may fail (a store on another machine may be away); the chat keeps what could not be
saved in order and tries again (see `SaveQueue`), and shows a conversation it could not read as
unavailable rather than as an empty one that the next message would save over.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Protocol

from chat_ui._model import Message, upgrade_history


class ConversationStore(Protocol):
    """One conversation's messages, kept somewhere: `ListStore` in a list (`LocalStore`, in NiceGUI's
    per-browser storage), `RedisStore.conversation()` in Redis."""

    async def load(self) -> list[Message]:
        """The messages, oldest first; raises when they cannot be read."""
        ...

    async def append(self, message: Message) -> None:
        """Keep `message` after the others."""
        ...

    async def replace(self, old: Message, new: Message) -> bool:
        """Replace the last message equal to `old` by `new`; False when there is none (the
        conversation was cleared meanwhile): nothing else is ever overwritten."""
        ...

    async def clear(self) -> None:
        """Forget every message: the next page starts a new conversation."""
        ...


class ListStore:
    """The conversation in `messages`, a list (or any mutable sequence: one a UI framework saves
    for each browser, say) that it reads and changes in place.

    Messages kept by an earlier version in an older shape are brought up to date when read.
    """

    def __init__(self, messages: MutableSequence[Message]) -> None:
        self.messages = messages

    async def load(self) -> list[Message]:
        upgrade_history(self.messages)
        return list(self.messages)

    async def append(self, message: Message) -> None:
        self.messages.append(message)

    async def replace(self, old: Message, new: Message) -> bool:
        for index in range(len(self.messages) - 1, -1, -1):
            if self.messages[index] == old:
                self.messages[index] = new
                return True
        return False

    async def clear(self) -> None:
        self.messages.clear()
