"""What answers in the chat: the `Agent` protocol. An agent is given the conversation and yields
its reply.

Yielding chunks (instead of returning one string) lets a real model stream its tokens; the chat
shows them as they arrive. An empty conversation asks for the greeting, so starting a conversation
needs no second method. Text is all most agents yield; one whose model asks with a tool call also
yields the events of `chat_ui._model._reply` (see `LLMAgent`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Protocol

from chat_ui._model import Message, ReplyChunk


class Agent(Protocol):
    """Anything that can reply in the chat."""

    def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        """Yield the reply to `history` (user and assistant messages, oldest first) in chunks that
        are joined as they come. An empty history asks for the greeting. Raise `AgentError` to show
        the person a message of your own wording when the reply fails."""
        ...
