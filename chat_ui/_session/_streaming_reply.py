"""One reply of the agent while it streams: shown as it grows, saved as it grows, kept once it ends.

Showing is the front end's (a `ReplyView`); when to show it, and everything about saving it, is
decided here, so that every front end streams alike. Showing and saving are throttled on their own
clocks: the reply is shown at most every `RENDER_INTERVAL` seconds, however many chunks the reply
comes in, and it is saved at most every `DRAFT_SAVE_INTERVAL` seconds, so a long reply costs the
store a write a second, not one per token. A reply is saved while it streams (a draft,
`Message.streaming`), so that one whose app stopped mid-way is found later and shown as cut off
rather than lost without a trace; the draft is saved again when `DRAFT_KEPT_FRESH` seconds have
passed without a save, so that no other page takes a silent reply (a tool at work, a slow model) for
one whose app stopped. A draft that no app has saved for `DRAFT_STALE` seconds is taken for cut
off. When the reply ends, what it ended as (its message, the app's notices) takes its draft's place
in the store.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from types import TracebackType

from chat_ui._model import Message, ReplyChunk, ReplyDraft, cut_off
from chat_ui._session._frontend import ReplyView
from chat_ui._session._throttle import Throttle
from chat_ui._stores import SaveQueue

RENDER_INTERVAL = 0.1  # seconds: at most ten renders a second of a reply that streams
DRAFT_SAVE_INTERVAL = 1.0  # seconds: a streaming reply is saved at most once a second
DRAFT_KEPT_FRESH = 2.0  # seconds: a streaming reply is saved at least this often, text or not
DRAFT_STALE = 6.0  # seconds without a save after which a draft streaming nowhere here is cut off

_LIVE_REPLIES: set[str] = set()
"""The ids of the replies streaming in this process (see `Message.streaming`)."""


def streaming_somewhere(message: Message) -> bool:
    """Whether `message` is the draft of a reply that still streams: in this process, or in
    another one (an instance sharing the store) that saved it lately."""
    reply = message.get("streaming")
    if reply is None:
        return False
    return reply in _LIVE_REPLIES or abs(time.time() - message.get("saved_at", 0.0)) < DRAFT_STALE


class StreamingReply:
    """A reply under way, shown by `view` and saved through `saves` (None: a chat without a store).

    Use it as a context manager around the agent's chunks: `add` each one, then `end` (the message
    it ended as: the caller keeps it, then has `view.finish` show it), `fail` (it failed: nothing of it
    is shown) or, when the reply is stopped, nothing (nothing of it is shown, and what it had saved
    is kept as cut off on the way out). `save_ending` then saves what the reply ended as in its
    draft's place.
    """

    def __init__(self, view: ReplyView, saves: SaveQueue | None) -> None:
        self.view = view
        self.draft = ReplyDraft()
        self._saves = saves
        self._id = uuid.uuid4().hex
        self._saved: Message | None = None  # the draft as last queued for the store
        self._render = Throttle(self._show, RENDER_INTERVAL)
        self._save = Throttle(self._save_draft, DRAFT_SAVE_INTERVAL)
        self._fresh: asyncio.Task[None] | None = None
        self._ended = False

    def __enter__(self) -> StreamingReply:
        _LIVE_REPLIES.add(self._id)
        if self._saves is not None:
            self._fresh = asyncio.create_task(self._keep_fresh(), name="chat reply kept fresh")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._render.cancel()
        self._save.cancel()
        if self._fresh is not None:
            self._fresh.cancel()
        _LIVE_REPLIES.discard(self._id)
        if not self._ended:  # stopped: nothing of it is shown, what was saved is kept cut off
            self.view.discard()
            if self._saved is not None and self._saves is not None:
                self._saves.replace(self._saved, cut_off(self._saved))

    def add(self, chunk: ReplyChunk) -> None:
        """Take the next chunk: shown and saved soon, each on its own clock."""
        self.draft.add(chunk)
        self._render.request()
        if self._saves is not None:
            self._save.request()

    def end(self) -> Message | None:
        """The reply has ended: the message it ended as (None when it said nothing, and then
        nothing of it is shown)."""
        self._ended = True
        message = self.draft.message()
        if message is None:
            self.view.discard()
        return message

    def fail(self) -> None:
        """The reply failed: nothing of it is shown (a notice from the app says why)."""
        self._ended = True
        self.view.discard()

    def save_ending(self, ending: list[Message]) -> None:
        """Queue what the reply ended as: its message and notices, the first in its draft's place."""
        if self._saves is None:
            return
        if self._saved is not None:
            self._saves.replace(self._saved, ending[0] if ending else cut_off(self._saved))
            ending = ending[1:]
        for message in ending:
            self._saves.append(message)

    async def _keep_fresh(self) -> None:
        """Save the draft again once `DRAFT_KEPT_FRESH` seconds have passed without a save; while
        text streams, its own saves keep it fresh."""
        while True:
            last = self._saved.get("saved_at", 0.0) if self._saved else time.time()
            await asyncio.sleep(max(last + DRAFT_KEPT_FRESH - time.time(), 0.0))
            if self._saved and time.time() - self._saved.get("saved_at", 0.0) >= DRAFT_KEPT_FRESH:
                self._save_draft()

    def _save_draft(self) -> None:
        """Queue the reply so far for the store, in place of its previous draft."""
        assert self._saves is not None
        if self.draft.says_nothing():
            return
        draft = self.draft.partial(self._id)
        draft["saved_at"] = time.time()
        if self._saved is not None:
            self._saves.replace(self._saved, draft)
        else:
            self._saves.append(draft)
        self._saved = draft

    def _show(self) -> None:
        if not self.draft.says_nothing():
            self.view.show(self.draft)
