"""What the inbox shows, read from the history: the questions waiting now in every running server,
and the ones that ended last. Nothing here imports Starlette; `_server` serves it.

Time is sent as seconds left on the inbox's own clock: the browser's clock may differ from it,
while every server wrote its deadline on the one wall clock of this machine. What the inbox says
of a question (where it waits, how it ended, when) is in the page's language; the summary is the
one the agent got, in English.
"""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from present_choices._locale_format import format_moment
from present_choices._translation import N_, Translation
from provide_choice._contract._settings import InteractionSettings, away_until, local_time
from provide_choice._history._records import RecordedQuestion, iso_time, recent, waiting
from provide_choice._history._store import HistoryMissing, HistoryUnavailable, open_history
from provide_choice._settings_file import load_settings, save_changes, settings_path

if TYPE_CHECKING:
    import sqlite3

NOT_SHOWN = N_("Not shown yet")
"""Where a question waits before its transport shows it at its page."""
PAGE_ADDRESS_SCHEMES = ("http://", "https://")
"""A waiting question's address that is a page: on this machine, or under a server's public URL."""
AWAY_MINUTES_LIMIT = 14 * 24 * 60
"""The longest "I'm away" the inbox sets: two weeks (a longer absence goes in the settings)."""


class InboxState:
    """Reads the history for the inbox page; one connection, used by one thread at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._settings: InteractionSettings | None = None
        self._settings_version: tuple[int, int] | None = None

    async def read(self, translation: Translation) -> dict[str, Any]:
        """`snapshot(translation)`, read off the event loop."""
        return await asyncio.to_thread(self.snapshot, translation)

    async def close(self) -> None:
        self.close_connection()

    def snapshot(self, translation: Translation) -> dict[str, Any]:
        """The page's state, in `translation`. A history that cannot be read is a problem to show,
        never an error: the next snapshot tries again (the file may be created, or replaced,
        meanwhile). It also says until when the person is away ("18:00"), or null."""
        # Deferred for start-up time: loaded only when this runs.
        import sqlite3

        lists: dict[str, Any]
        now = datetime.now()
        with self._lock:
            try:
                if self._connection is None:
                    self._connection = open_history(self.path, create=False)
                lists = {
                    "waiting": [
                        waiting_row(question, translation) for question in waiting(self._connection)
                    ],
                    "recent": [
                        ended_row(question, translation, now)
                        for question in recent(self._connection)
                    ],
                    "problem": None,
                }
            except HistoryMissing:
                lists = {"waiting": [], "recent": [], "problem": None}
            except (HistoryUnavailable, sqlite3.Error) as error:
                self.close_connection()
                problem = (
                    error.said(translation) if isinstance(error, HistoryUnavailable) else str(error)
                )
                lists = {"waiting": [], "recent": [], "problem": problem}
            settings = self._current_settings()
        return lists | settings_rows(settings, translation)

    async def away(self, data: object) -> None:
        """The person is away for a while, or back (`away_changes`): saved in their settings file,
        which every server reads at its next question."""
        changes = away_changes(data)
        await asyncio.to_thread(save_changes, changes)
        with self._lock:
            self._settings = None

    def _current_settings(self) -> InteractionSettings:
        """The person's settings: read again only when the settings file changed (the page asks
        every second; a broken file warns once)."""
        path = settings_path()
        try:
            stat = path.stat()
            version: tuple[int, int] | None = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            version = None
        if self._settings is None or version != self._settings_version:
            self._settings, self._settings_version = load_settings(path), version
        return self._settings

    def close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def settings_rows(settings: InteractionSettings, translation: Translation) -> dict[str, Any]:
    """What the page follows of the person's settings (its alerts, and until when they are away),
    and the language it is in."""
    alerts = {"browser": settings.alerts.browser, "after_seconds": settings.alert_after_seconds}
    shown_away = _away_shown(settings, translation)
    return {"language": translation.tag, "alerts": alerts, "away_until": shown_away}


def _away_shown(settings: InteractionSettings, translation: Translation) -> str | None:
    """Until when the person is away, as their language writes a time (`3:04 PM`, `12月3日 15:04`
    on another day); None when they are not away."""
    if settings.away_until is None or away_until(settings) is None:
        return None
    until = local_time(settings.away_until).replace(tzinfo=None)
    return format_moment(until, translation, datetime.now())


def away_changes(data: object) -> dict[str, str | None]:
    """The settings' change for `{"away_for_minutes": N}` (away from now for N minutes) or
    `{"away_for_minutes": null}` (back). Raises `ChoicesError` saying what is allowed."""
    minutes = data.get("away_for_minutes", False) if isinstance(data, dict) else False
    if minutes is not None and (type(minutes) is not int or not 1 <= minutes <= AWAY_MINUTES_LIMIT):
        raise ChoicesError(
            [
                f'send {{"away_for_minutes": N}} with whole minutes from 1 to '
                f"{AWAY_MINUTES_LIMIT}, or null when the person is back"
            ]
        )
    until = None if minutes is None else datetime.now() + timedelta(minutes=minutes)
    return {"away_until": None if until is None else until.isoformat("T", "minutes")}


def waiting_row(question: RecordedQuestion, translation: Translation) -> dict[str, Any]:
    """A waiting question links its page, or says where it waits as its transport words it
    (recorded when it was asked: a plug-in's words too, though this process never loaded it; the
    catalog says those of the built-in transports in the page's language)."""
    where = question.transport_where
    has_page = where is None and (question.url or "").startswith(PAGE_ADDRESS_SCHEMES)
    shown_where = None if has_page else where or _not_at_a_page(question)
    return _common(question, translation) | {
        "url": question.url if has_page else None,
        "where": None if shown_where is None else translation.gettext(shown_where),
        "seconds_left": round(max(question.deadline_at - time.time(), 0.0), 1),
        "waited_seconds": round(max(time.time() - question.asked_at, 0.0), 1),
    }


def _not_at_a_page(question: RecordedQuestion) -> str:
    """Where a question whose transport shows it at a page waits when that is no web address:
    not shown yet (no address), else by its transport's label."""
    return NOT_SHOWN if question.url is None else question.transport_label


def ended_row(
    question: RecordedQuestion, translation: Translation, now: datetime
) -> dict[str, Any]:
    selection = question.selection or {}
    ended_at = None if question.ended_at is None else datetime.fromtimestamp(question.ended_at)
    return _common(question, translation) | {
        "action_status": question.action_status,
        "answered_by": question.answered_by,
        "summary": selection.get("summary"),
        "ended_at": None if question.ended_at is None else iso_time(question.ended_at),
        "ended_at_text": None if ended_at is None else format_moment(ended_at, translation, now),
    }


def _common(question: RecordedQuestion, translation: Translation) -> dict[str, Any]:
    return {
        "key": question.key,
        "title": question.shown_title(translation),
        "client": question.client_text,
        "transport": question.transport,
        "transport_label": translation.gettext(question.transport_label),
    }
