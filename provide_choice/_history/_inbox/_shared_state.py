"""What `provide-choice inbox --redis URL` shows: the questions of every `serve --http --redis URL`
instance on that Redis, read from the store they share instead of this machine's history.

Each question is read as the history would have recorded it (`RecordedQuestion`), so the page draws
it the same way: a waiting one with a link to its page under its server's public URL, an ended one
with how it ended. The store keeps an ended question until its keys expire (the poll grace after
its end), so "Recent" holds those that ended in the last minutes.
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import datetime
from typing import Any

from present_choices._translation import N_, Translation
from provide_choice._history._inbox._state import (
    away_changes,
    ended_row,
    settings_rows,
    waiting_row,
)
from provide_choice._history._recorder import asked_columns, response_to
from provide_choice._history._records import RECENT_LIMIT, RecordedQuestion, transport_words
from provide_choice._question import QuestionStore, StoreUnavailable
from provide_choice._question._store import Snapshot
from provide_choice._settings_file import load_settings

STORE_AWAY = N_("{problem}. The lists show again as soon as it answers.")
"""What the page says while the shared store cannot be read (its reason stays as it is)."""


class SharedInboxState:
    """Reads the shared store for the inbox page, and the person's settings the alerts follow
    (this machine's file, with every change made through an instance over it)."""

    def __init__(self, store: QuestionStore) -> None:
        self.store = store

    async def read(self, translation: Translation) -> dict[str, Any]:
        """The page's state, in `translation`; a store that cannot be read is a problem to show,
        never an error."""
        saved = await asyncio.to_thread(load_settings)
        try:
            kept = await self.store.questions()
            settings = await self.store.settings(saved)
        except StoreUnavailable as away:
            problem = translation.gettext(STORE_AWAY, problem=away)
            lists = {"waiting": [], "recent": [], "problem": problem}
            return lists | settings_rows(saved, translation)
        ended = sorted(
            (stored for stored in kept if stored.outcome is not None),
            key=lambda stored: stored.ended or 0.0,
            reverse=True,
        )
        now = datetime.now()
        return {
            "waiting": [
                waiting_row(_recorded(stored), translation)
                for stored in kept
                if stored.outcome is None
            ],
            "recent": [
                ended_row(_recorded(stored), translation, now) for stored in ended[:RECENT_LIMIT]
            ],
            "problem": None,
        } | settings_rows(settings, translation)

    async def away(self, data: object) -> None:
        """The person is away for a while, or back (`away_changes`): saved in the shared store,
        which every instance reads at its next question. Raises `StoreUnavailable` while it is
        away itself."""
        await self.store.save_settings(away_changes(data))

    async def close(self) -> None:
        await self.store.aclose()


def _recorded(stored: Snapshot) -> RecordedQuestion:
    """The question as the history would hold it."""
    response = None
    if stored.outcome is not None:
        response = response_to(stored.asked, stored.outcome, stored.transport, stored.url)
    digest = hashlib.sha256(stored.id.encode()).digest()
    words = transport_words(stored.transport)
    return RecordedQuestion(
        # Its page's id is a secret: the page's list keys its items by a number made from it.
        key=int.from_bytes(digest[:6], "big"),
        client=stored.client,
        transport=stored.transport,
        url=stored.url,
        asked_at=stored.started,
        deadline_at=stored.deadline,
        ended_at=stored.ended,
        action_status=None if response is None else response.action_status,
        answered_by=None if response is None else response.answered_by,
        selection=None if response is None else response.selection.model_dump(mode="json"),
        state="waiting" if stored.outcome is None else "ended",
        transport_label=words["transport_label"] or stored.transport,
        transport_where=words["transport_where"],
        **asked_columns(stored.asked),
    )
