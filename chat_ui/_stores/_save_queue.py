"""Writes to a conversation's store, in the order they were made, tried again until they succeed.

A store on another machine can go away for a while (Redis restarting, the network). A write that
fails then is not dropped and not skipped: it stays at the head of the queue, every later write
waits behind it (so the store never holds a later message without an earlier one), and it is tried
again with a growing pause until the store takes it. Meanwhile `on_unsaved` has the page say so;
it is called again with False once everything is saved.

Successive updates of one streaming reply are folded into one write while they wait, so a long
outage during a long reply queues one write for it, not hundreds.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from chat_ui._model import Message, cut_off
from chat_ui._stores._store import ConversationStore

log = logging.getLogger(__name__)

FIRST_RETRY = 0.25  # seconds before the first retry; doubled after each failure
LAST_RETRY = 2.0  # seconds: the longest pause between two tries


@dataclass
class _Write:
    """One write: `message` appended (`old` None), `old` replaced by `message`, or all cleared
    (`message` None). `saved` is set once the store has it."""

    message: Message | None
    old: Message | None = None
    saved: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, store: ConversationStore) -> None:
        if self.message is None:
            await store.clear()
        elif self.old is None:
            await store.append(self.message)
        elif not await store.replace(self.old, self.message) and "streaming" in self.old:
            # A page that found no save of this draft for a while kept it as cut off; the reply
            # lived on all the same (its store was away, or its event loop held up): it wins.
            await store.replace(cut_off(self.old), self.message)


class SaveQueue:
    """The pending writes of one conversation, run one at a time in order by a task of its own
    (which outlives the page that made them: a closed tab does not lose them)."""

    def __init__(self, store: ConversationStore, on_unsaved: Callable[[bool], None]) -> None:
        self.store = store
        self.on_unsaved = on_unsaved
        self.unsaved = False
        self._writes: deque[_Write] = deque()
        self._running: asyncio.Task[None] | None = None

    def append(self, message: Message) -> asyncio.Event:
        """Queue `message` for the end of the conversation; the event is set once it is saved."""
        return self._put(_Write(message))

    def replace(self, old: Message, new: Message) -> None:
        """Queue replacing `old` (a message queued or saved before) by `new`."""
        # The first write may be under way; a later one is still only waiting.
        waiting = self._writes[-1] if len(self._writes) > 1 else None
        if waiting is not None and waiting.message == old:
            waiting.message = new  # `old` never reached the store: write `new` in its place
            return
        self._put(_Write(new, old))

    def clear(self) -> asyncio.Event:
        """Queue forgetting the whole conversation; the event is set once it is forgotten."""
        return self._put(_Write(None))

    def pending(self) -> bool:
        return bool(self._writes)

    def _put(self, write: _Write) -> asyncio.Event:
        self._writes.append(write)
        if self._running is None:
            self._running = asyncio.create_task(self._run(), name="chat save queue")
            _RUNNING.add(self._running)
            self._running.add_done_callback(_RUNNING.discard)
        return write.saved

    async def _run(self) -> None:
        pause = FIRST_RETRY
        try:
            while self._writes:
                write = self._writes[0]
                try:
                    await write.run(self.store)
                except Exception as error:
                    if not self.unsaved:
                        log.warning("the conversation could not be saved (%s); retrying", error)
                        self._set_unsaved(True)
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, LAST_RETRY)
                    continue
                pause = FIRST_RETRY
                self._writes.popleft()
                write.saved.set()
            if self.unsaved:
                log.warning("the conversation is saved again")
                self._set_unsaved(False)
        finally:
            self._running = None

    def _set_unsaved(self, unsaved: bool) -> None:
        self.unsaved = unsaved
        self.on_unsaved(unsaved)


_RUNNING: set[asyncio.Task[None]] = set()
"""The queues' tasks: asyncio keeps only weak references to tasks, and a queue must finish its
writes even when nothing else refers to it any more."""
