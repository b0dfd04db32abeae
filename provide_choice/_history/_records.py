"""The questions as the history holds them (`RecordedQuestion`), and the ways they are read: those
waiting in a running server now, those that ended last, and every one, newest first, found by any
words of theirs. A question whose server stopped before it ended is told apart (`unfinished`)
from one still waiting, by whether its server still runs.

Each question keeps how its transport named itself when it was asked (`transport_words`), so the
history and the inbox (other processes, maybe without a plug-in the server loaded) say it as it
was said. The file itself, its schema and what writes to it are `_store`'s.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from present_choices._translation import ENGLISH, Translation
from provide_choice._contract._transport_table import kind_of
from provide_choice._history._process import ProcessIdentity, is_running
from provide_choice._question import AgentClient

if TYPE_CHECKING:
    import sqlite3

RECENT_LIMIT = 50
STALE_SECONDS = 60.0
"""A question this far past its deadline and still not ended is no longer shown as waiting, even
where the system cannot tell whether its server still runs."""
NOT_SHOWN = ""
"""The `transport` of a question shown nowhere (the answers file, or nobody, answered it)."""
NOT_SHOWN_LABEL = "Not shown"

RecordStatus = Literal["waiting", "ended", "unfinished"]


@dataclass(frozen=True)
class RecordedQuestion:
    """One question as the history holds it."""

    key: int
    """Its row in the history (not its session id, which is a secret)."""
    title: str
    prompt: str
    selection_mode: str
    options: list[dict[str, Any]]
    client: AgentClient | None
    transport: str | None
    """None: shown nowhere (answered before anyone was asked)."""
    transport_label: str
    """How its transport names itself ("The browser"), as recorded when it was asked."""
    transport_where: str | None
    """How the inbox says where it waits (`TransportKind.inbox`); None: at its own page."""
    url: str | None
    asked_at: float
    deadline_at: float
    ended_at: float | None
    action_status: str | None
    answered_by: str | None
    selection: dict[str, Any] | None
    state: RecordStatus
    """Waiting in a running server; ended; or unfinished: its server stopped before it ended."""
    alert_failed: str | None = None
    """Which alert of the question could not be delivered, and why; None: none failed."""
    person: str | None = None
    """Who answered, where the surface knew ("ada (U0ADA)" in Slack); None: not known."""
    question_count: int | None = None
    """How many questions a batch holds; None: one question."""

    def shown_title(self, translation: Translation = ENGLISH) -> str:
        """Its title as a list shows it (the inbox, `provide-choice history`): a batch is one
        row, and says how many questions it holds, in `translation` ("Deploy (3 questions)")."""
        if self.question_count is None:
            return self.title
        return translation.ngettext(
            "{title} ({count} question)",
            "{title} ({count} questions)",
            self.question_count,
            title=self.title,
        )

    @property
    def client_text(self) -> str | None:
        return None if self.client is None else f"{self.client.name} {self.client.version}".strip()

    def as_json(self) -> dict[str, Any]:
        """What `provide-choice history --json` prints for it."""
        return {
            "title": self.shown_title(),
            "prompt": self.prompt,
            "selection_mode": self.selection_mode,
            "options": self.options,
            "client": None if self.client is None else self.client._asdict(),
            "transport": self.transport,
            "transport_label": self.transport_label,
            "asked_at": iso_time(self.asked_at),
            "ended_at": None if self.ended_at is None else iso_time(self.ended_at),
            "action_status": self.action_status,
            "answered_by": self.answered_by,
            "selection": self.selection,
            "alert_failed": self.alert_failed,
            "person": self.person,
        }


COLUMNS = "rowid, *"


def waiting(connection: sqlite3.Connection) -> list[RecordedQuestion]:
    """The questions waiting right now in a running server, oldest first."""
    rows = connection.execute(
        f"SELECT {COLUMNS} FROM questions WHERE ended_at IS NULL AND deadline_at > ? "
        "ORDER BY asked_at",
        (time.time() - STALE_SECONDS,),
    ).fetchall()
    return [question for question in _read(rows) if question.state == "waiting"]


def recent(connection: sqlite3.Connection, limit: int = RECENT_LIMIT) -> list[RecordedQuestion]:
    """The questions that ended last, the last first."""
    rows = connection.execute(
        f"SELECT {COLUMNS} FROM questions WHERE ended_at IS NOT NULL "
        "ORDER BY ended_at DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return _read(rows)


def search(
    connection: sqlite3.Connection, *, limit: int, text: str | None = None
) -> list[RecordedQuestion]:
    """Every question, newest first; with `text`, those whose title, prompt, options, client or
    answer hold it (case-insensitively)."""
    where, parameters = "", {"limit": limit, "text": text}
    if text:
        where = (
            "WHERE instr(folded(title || ' ' || prompt || ' ' || options || ' ' || "
            "coalesce(client_name, '') || ' ' || coalesce(response, '')), folded(:text)) > 0"
        )
    rows = connection.execute(
        f"SELECT {COLUMNS} FROM questions {where} ORDER BY asked_at DESC LIMIT :limit", parameters
    ).fetchall()
    return _read(rows)


def iso_time(timestamp: float) -> str:
    """ISO 8601 in the local time zone, with its offset, to the second."""
    return datetime.fromtimestamp(timestamp).astimezone().isoformat(timespec="seconds")


def _read(rows: list[sqlite3.Row]) -> list[RecordedQuestion]:
    running: dict[ProcessIdentity, bool] = {}
    questions = []
    for row in rows:
        state: RecordStatus = "ended"
        if row["ended_at"] is None:
            server = ProcessIdentity(row["server_pid"], row["server_start"])
            if server not in running:
                running[server] = is_running(server)
            state = "waiting" if running[server] else "unfinished"
        client_name, response = row["client_name"], row["response"]
        questions.append(
            RecordedQuestion(
                key=row["rowid"],
                title=row["title"],
                prompt=row["prompt"],
                selection_mode=row["selection_mode"],
                options=json.loads(row["options"]),
                client=None
                if client_name is None
                else AgentClient(client_name, row["client_version"]),
                transport=row["transport"] or None,
                **_transport_words(row),
                url=row["url"],
                asked_at=row["asked_at"],
                deadline_at=row["deadline_at"],
                ended_at=row["ended_at"],
                action_status=row["action_status"],
                answered_by=row["answered_by"],
                selection=None if response is None else json.loads(response)["selection"],
                state=state,
                alert_failed=row["alert_failed"],
                person=row["person"],
                question_count=row["question_count"],
            )
        )
    return questions


def transport_words(name: str | None) -> dict[str, str | None]:
    """How transport `name` names itself and says where its questions wait, as the transport
    table of this process has it (its bare name where the table lacks it): recorded with each
    question when it is asked, so the history and the inbox (another process, maybe without a
    plug-in the server loaded) say it as it was said. None: the question is shown nowhere."""
    if name is None:
        return {"transport_label": NOT_SHOWN_LABEL, "transport_where": None}
    try:
        kind = kind_of(name)
    except KeyError:  # a transport given to a server directly, never registered
        return {"transport_label": name, "transport_where": None}
    return {"transport_label": kind.label, "transport_where": kind.inbox}


def _transport_words(row: sqlite3.Row) -> dict[str, Any]:
    """A row's transport label and inbox wording; a row recorded before they were (version 1)
    takes them from the transport table."""
    if row["transport_label"] is None:
        return transport_words(row["transport"])
    return {"transport_label": row["transport_label"], "transport_where": row["transport_where"]}
