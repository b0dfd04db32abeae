"""What the inbox shows, read from the history: the questions waiting now in every running server,
and the ones that ended last. Nothing here imports FastAPI; `_server` serves it.

Time is sent as seconds left on the inbox's own clock: the browser's clock may differ from it,
while every server wrote its deadline on the one wall clock of this machine. What the inbox says
of a question (where it waits, how it ended, when) is in the page's language; the summary is the
one the agent got, in English.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from present_choices._locale_format import format_moment
from present_choices._translation import N_, Translation
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

NOT_SHOWN = N_("Not shown yet")
"""Where a question waits before its transport shows it at its page."""
PAGE_ADDRESS_PREFIX = "http://127.0.0.1:"


class InboxState:
    """Reads the history for the inbox page; one connection, used by one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._settings: InteractionSettings | None = None
        self._settings_version: tuple[int, int] | None = None

    def snapshot(self, translation: Translation) -> dict[str, Any]:
        """The page's state, in `translation`. A history that cannot be read is a problem to show,
        never an error: the next snapshot tries again (the file may be created, or replaced,
        meanwhile)."""
        # Deferred for start-up time: loaded only when this runs.
        import sqlite3

        empty: dict[str, Any] = {
            "language": translation.tag,
            "waiting": [],
            "recent": [],
            "problem": None,
            "alerts": self._alerts(),
        }
        now = datetime.now()
        with self._lock:
            try:
                if self._connection is None:
                    self._connection = open_history(self.path, create=False)
                return empty | {
                    "waiting": [
                        _waiting(question, translation) for question in waiting(self._connection)
                    ],
                    "recent": [
                        _ended(question, translation, now) for question in recent(self._connection)
                    ],
                }
            except HistoryMissing:
                return empty
            except (HistoryUnavailable, sqlite3.Error) as error:
                self.close_connection()
                return empty | {"problem": str(error)}

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
        return {
            "browser": self._settings.alerts.browser,
            "after_seconds": self._settings.alert_after_seconds,
        }

    def close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _waiting(question: RecordedQuestion, translation: Translation) -> dict[str, Any]:
    """A waiting question links its page, or says where it waits as its transport words it
    (recorded when it was asked: a plug-in's words too, though this process never loaded it; the
    catalog says those of the built-in transports in the page's language)."""
    where = question.transport_where
    has_page = where is None and (question.url or "").startswith(PAGE_ADDRESS_PREFIX)
    shown_where = None if has_page else where or _not_at_a_page(question)
    return _common(question, translation) | {
        "url": question.url if has_page else None,
        "where": None if shown_where is None else translation.gettext(shown_where),
        "seconds_left": round(max(question.deadline_at - time.time(), 0.0), 1),
        "waited_seconds": round(max(time.time() - question.asked_at, 0.0), 1),
    }


def _not_at_a_page(question: RecordedQuestion) -> str:
    """Where a question whose transport shows it at a page waits when that page is not local:
    not shown yet (no address), else by its transport's label."""
    return NOT_SHOWN if question.url is None else question.transport_label


def _ended(question: RecordedQuestion, translation: Translation, now: datetime) -> dict[str, Any]:
    selection = question.selection or {}
    ended_at = None if question.ended_at is None else datetime.fromtimestamp(question.ended_at)
    return _common(question, translation) | {
        "action_status": question.action_status,
        "summary": selection.get("summary"),
        "ended_at": None if question.ended_at is None else iso_time(question.ended_at),
        "ended_at_text": None if ended_at is None else format_moment(ended_at, translation, now),
    }


def _common(question: RecordedQuestion, translation: Translation) -> dict[str, Any]:
    return {
        "key": question.key,
        "title": question.title,
        "client": question.client_text,
        "transport": question.transport,
        "transport_label": translation.gettext(question.transport_label),
    }
