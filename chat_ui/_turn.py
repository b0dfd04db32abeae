"""One turn of an agent, without a UI: the reply to a conversation as it streams, and the messages it
ends as. The Gradio and Streamlit adapters drive their agent with it and draw what it holds.

The agent is given `conversation(history)`, its chunks go into a `ReplyDraft`, and the turn ends as
the reply's message and the app's notices about it, or, when the agent fails, as one notice saying
why (in the person's words for an `AgentError`), like the NiceGUI chat's.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Sequence

from chat_ui._agents import Agent
from chat_ui._conversation import SILENT_REPLY, Message, conversation
from chat_ui._reply import AgentError, ReplyDraft
from present_choices._translation import spoken

log = logging.getLogger(__name__)

SHOW_INTERVAL = 0.1  # seconds: a streaming reply is shown again at most ten times a second


class Turn:
    """The reply of `agent` to `history`: iterate `stream()` for the draft as it grows (at most every
    `interval` seconds, and once at the end), then read `added`, the messages it ended as."""

    def __init__(
        self, agent: Agent, history: Sequence[Message], *, interval: float = SHOW_INTERVAL
    ) -> None:
        self.agent = agent
        self.history = list(history)
        self.draft = ReplyDraft()
        self.added: list[Message] = []
        self.interval = interval

    async def stream(self) -> AsyncIterator[ReplyDraft]:
        shown_at = 0.0
        try:
            async for chunk in self.agent.reply(conversation(self.history)):
                self.draft.add(chunk)
                if time.monotonic() - shown_at >= self.interval and not self.draft.says_nothing():
                    shown_at = time.monotonic()
                    yield self.draft
        except Exception as error:
            self.added = [failure_notice(error)]
            return
        self.added = self._ending()
        yield self.draft

    def _ending(self) -> list[Message]:
        message = self.draft.message()
        went_on = not self.draft.notices and self.history and self.history[-1]["role"] == "answer"
        if message is None and went_on:
            message = SILENT_REPLY.copy()
        ending = [] if message is None else [message]
        return ending + [{"role": "error", "content": text} for text in self.draft.notices]


def failure_notice(error: Exception) -> Message:
    """The notice of a reply that failed with `error`, which is logged: with a traceback only where
    it helps (an `AgentError` already says what went wrong, in the person's words)."""
    log.warning("the agent failed to reply: %s", error, exc_info=not isinstance(error, AgentError))
    if isinstance(error, AgentError):
        return {"role": "error", "content": str(error)}
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    text = spoken().gettext(
        "The agent could not reply ({detail}). Send your message again to retry.", detail=detail
    )
    return {"role": "error", "content": text}


def waits_for_reply(history: Sequence[Message]) -> bool:
    """Whether the agent's turn is next: the conversation is new (the greeting), or ends with what
    the person said."""
    return not history or history[-1]["role"] == "user"
