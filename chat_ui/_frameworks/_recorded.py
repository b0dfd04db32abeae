"""A `ChatSession`'s front end for the frameworks that draw the whole chat again from data (Gradio,
Streamlit): it records what the session tells it, as the messages to draw, and the adapter draws
them when it likes (after each change, in Gradio's event; in a run of the script, in Streamlit's).

Nothing is decided here: which messages there are, the state of each block, when the chat is busy
and what a reply shows while it streams are the session's (`chat_ui._session`); this only keeps the
latest of each, and lets a follower know that something changed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from chat_ui._frameworks._shown import Part, Shown, content_parts, shown_message
from chat_ui._model import BlockUpdate, Message, ReplyDraft
from present_choices._translation import Translation


@dataclass
class _Row:
    message: Message
    answer: str | None = None


class RecordedChat:
    """The conversation as the session last showed it, in `words` (the chat's language)."""

    def __init__(self, words: Translation) -> None:
        self.words = words
        self.busy = False
        self.draft: list[Part] | None = None
        """The reply under way as it shows now (None: no reply is streaming)."""
        self.notice: str | None = None
        self._rows: list[_Row] = []
        self._by_index: dict[int, _Row] = {}  # the replies with blocks, by place in the history
        self._listener: Callable[[], None] | None = None
        self._changes = 0

    def shown(self) -> list[Shown]:
        """The messages to draw, oldest first."""
        drawn = (shown_message(row.message, row.answer, self.words) for row in self._rows)
        return [message for message in drawn if message is not None]

    def offered(self, value: str) -> bool:
        """Whether a block still waiting offers an option of `value`: a click sends it only then
        (not a click on a block already answered, nor a second click)."""
        return any(option.value == value for shown in self.shown() for option in shown.options)

    async def follow(self) -> AsyncIterator[None]:
        """Yield now, then after each change while the chat is busy, and once more after the last
        change (a reply that ended while the follower drew the frame before is drawn ended too)."""
        changed = asyncio.Event()
        self._listener = changed.set
        try:
            while True:
                seen = self._changes
                yield
                if self._changes == seen:
                    if not self.busy:
                        return
                    await changed.wait()
                changed.clear()
        finally:
            self._listener = None

    def _changed(self) -> None:
        self._changes += 1
        if self._listener is not None:
            self._listener()

    # ChatFrontend -----------------------------------------------------------------------------

    def show_message(self, message: Message, blocks: BlockUpdate | None) -> None:
        row = _Row(message, None if blocks is None else blocks.answer)
        self._rows.append(row)
        if blocks is not None:
            self._by_index[blocks.index] = row
        self._changed()

    def show_blocks(self, blocks: BlockUpdate) -> None:
        self._by_index[blocks.index].answer = blocks.answer
        self._changed()

    def start_reply(self) -> RecordedReply:
        return RecordedReply(self)

    def clear_messages(self) -> None:
        self._rows.clear()
        self._by_index.clear()
        self._changed()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self._changed()

    def set_available(self, available: bool) -> None:
        """A chat without a store is available from the start; nothing to record."""

    def show_notice(self, text: str | None, *, waiting: bool = False) -> None:
        self.notice = text
        self._changed()

    def forget_typed(self, text: str) -> None:
        """The adapters empty their message box when a message is sent; nothing to record."""


class RecordedReply:
    """A reply of `chat` while it streams (a `ReplyView`)."""

    def __init__(self, chat: RecordedChat) -> None:
        self.chat = chat

    def show(self, draft: ReplyDraft) -> None:
        asked = draft.asked.prompt if draft.asked else None
        self.chat.draft = content_parts(
            draft.text(), asked, None, self.chat.words, streaming=True, preparing=draft.preparing
        )
        self.chat._changed()

    def finish(self, message: Message, blocks: BlockUpdate) -> None:
        self.chat.draft = None
        self.chat.show_message(message, blocks)

    def discard(self) -> None:
        self.chat.draft = None
        self.chat._changed()
