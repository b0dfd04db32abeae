"""What the inbox shows, read from the history: the questions waiting now in every running server,
and the ones that ended last. Nothing here imports FastAPI; `_server` serves it.

Time is sent as seconds left on the inbox's own clock: the browser's clock may differ from it,
while every server wrote its deadline on the one wall clock of this machine.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from provide_choice._contract._settings import InteractionSettings, load_settings, settings_path
from provide_choice._history._store import (
    HistoryMissing,
    HistoryUnavailable,
    RecordedQuestion,
    iso_time,
    open_history,
    recent,
    waiting,
)

if TYPE_CHECKING:
    import sqlite3

NOT_SHOWN = "Not shown yet"
"""Where a question waits before its transport shows it at its page."""
PAGE_ADDRESS_SCHEMES = ("http://", "https://")
"""A waiting question's address that is a page: on this machine, or under a server's public URL."""


class InboxState:
    """Reads the history for the inbox page; one connection, used by one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._settings: InteractionSettings | None = None
        self._settings_version: tuple[int, int] | None = None

    async def read(self) -> dict[str, Any]:
        """`snapshot()`, read off the event loop."""
        return await asyncio.to_thread(self.snapshot)

    async def close(self) -> None:
        self.close_connection()

    def snapshot(self) -> dict[str, Any]:
        """The page's state. A history that cannot be read is a problem to show, never an error:
        the next snapshot tries again (the file may be created, or replaced, meanwhile)."""
        # Deferred for start-up time: loaded only when this runs.
        import sqlite3

        with self._lock:
            try:
                if self._connection is None:
                    self._connection = open_history(self.path, create=False)
                return {
                    "waiting": [waiting_row(question) for question in waiting(self._connection)],
                    "recent": [ended_row(question) for question in recent(self._connection)],
                    "problem": None,
                    "alerts": self._alerts(),
                }
            except HistoryMissing:
                return {"waiting": [], "recent": [], "problem": None, "alerts": self._alerts()}
            except (HistoryUnavailable, sqlite3.Error) as error:
                self.close_connection()
                return {
                    "waiting": [],
                    "recent": [],
                    "problem": str(error),
                    "alerts": self._alerts(),
                }

    def _alerts(self) -> dict[str, Any]:
        """What the page's alerts follow of the person's settings: read again only when the
        settings file changed (the page asks every second; a broken file warns once)."""
        path = settings_path()
        try:
            stat = path.stat()
            version: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            version = None
        if self._settings is None or version != self._settings_version:
            self._settings, self._settings_version = load_settings(path), version
        return alerts_row(self._settings)

    def close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def alerts_row(settings: InteractionSettings) -> dict[str, Any]:
    """What the page's alerts follow of the person's settings."""
    return {"browser": settings.alerts.browser, "after_seconds": settings.alert_after_seconds}


def waiting_row(question: RecordedQuestion) -> dict[str, Any]:
    """A waiting question links its page, or says where it waits as its transport words it
    (recorded when it was asked: a plug-in's words too, though this process never loaded it)."""
    where = question.transport_where
    has_page = where is None and (question.url or "").startswith(PAGE_ADDRESS_SCHEMES)
    return _common(question) | {
        "url": question.url if has_page else None,
        "where": None if has_page else where or _not_at_a_page(question),
        "seconds_left": round(max(question.deadline_at - time.time(), 0.0), 1),
        "waited_seconds": round(max(time.time() - question.asked_at, 0.0), 1),
    }


def _not_at_a_page(question: RecordedQuestion) -> str:
    """Where a question whose transport shows it at a page waits when that is no web address:
    not shown yet (no address), else by its transport's label."""
    return NOT_SHOWN if question.url is None else question.transport_label


def ended_row(question: RecordedQuestion) -> dict[str, Any]:
    selection = question.selection or {}
    return _common(question) | {
        "action_status": question.action_status,
        "summary": selection.get("summary"),
        "ended_at": None if question.ended_at is None else iso_time(question.ended_at),
    }


def _common(question: RecordedQuestion) -> dict[str, Any]:
    return {
        "key": question.key,
        "title": question.title,
        "client": question.client_text,
        "transport": question.transport,
        "transport_label": question.transport_label,
    }
