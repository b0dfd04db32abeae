"""The history: every question any server of this person asked, in one SQLite file they share.

Several `provide-choice serve` processes (one per agent) write to `history.sqlite3` at once, and the
inbox and `provide-choice history` read it meanwhile. WAL mode lets readers and the writer go on
without waiting for each other; the busy timeout makes a writer wait its turn instead of failing
with "database is locked"; every write is one short `BEGIN IMMEDIATE` transaction (taking the write
lock up front, so two writers never deadlock upgrading a read). Each server writes from one
background thread fed by a queue (`_recorder`): a question never waits for the disk.

The database holds its schema version (`PRAGMA user_version`); `MIGRATIONS` brings any older file
up to date, from the first version on. A file that cannot be opened, is corrupt, or comes from a
newer version costs one warning on stderr: questions are asked as ever, just not recorded. What is
read from it, and how, is `_records`'.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from present_choices._private_files import PRIVATE_FILE_MODE, private_directory
from present_choices._translation import ENGLISH, N_, Translation
from provide_choice._contract._settings import InteractionSettings
from provide_choice._history._process import ProcessIdentity, is_running
from provide_choice._history._records import waiting
from provide_choice._settings_file import APPLICATION_NAME, HOME_VARIABLE

if TYPE_CHECKING:
    import sqlite3

HISTORY_FILE_NAME = "history.sqlite3"
BUSY_TIMEOUT_SECONDS = 10.0
"""How long a write waits for another process's write before it counts as failed."""


@dataclass(frozen=True)
class AddColumn:
    """A column added to `questions` unless it is already there: two branches that each added
    one as their own next version leave files that differ only in which came first, and every
    order must end at the same schema."""

    name: str
    type: str = "TEXT"


Migration = Sequence[str | AddColumn]

MIGRATIONS: tuple[tuple[str | AddColumn, ...], ...] = (
    # 1: the first version.
    (
        """
        CREATE TABLE questions (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            prompt TEXT NOT NULL,
            selection_mode TEXT NOT NULL,
            options TEXT NOT NULL,
            client_name TEXT,
            client_version TEXT,
            transport TEXT NOT NULL,
            url TEXT,
            server_pid INTEGER NOT NULL,
            server_start TEXT,
            asked_at REAL NOT NULL,
            deadline_at REAL NOT NULL,
            ended_at REAL,
            action_status TEXT,
            response TEXT
        )
        """,
        "CREATE INDEX questions_by_asked_at ON questions (asked_at)",
        "CREATE INDEX questions_by_ended_at ON questions (ended_at)",
    ),
    # 2: how its transport names itself, recorded when it is asked (a plug-in may be gone later).
    (
        "ALTER TABLE questions ADD COLUMN transport_label TEXT",
        "ALTER TABLE questions ADD COLUMN transport_where TEXT",
    ),
    # 3: the alerts that could not be delivered (issue 28).
    (AddColumn("alert_failed"),),
    # 4: who answered; before, the person did, unless the deadline passed or the agent cancelled.
    # (A file an early build of issue 29 made has answered_by as its version 3, and no alert_failed.)
    (
        AddColumn("alert_failed"),
        AddColumn("answered_by"),
        "UPDATE questions SET answered_by = CASE WHEN action_status = 'timeout' "
        "OR response LIKE '%\"summary\":\"Cancelled by the agent%' THEN 'nobody' "
        "ELSE 'person' END WHERE action_status IS NOT NULL AND answered_by IS NULL",
    ),
    # 5: who answered, where a surface many may answer on knows them (a Slack user).
    (AddColumn("person"),),
    # 6: how many questions a batch holds, said after its title in the reader's language (before,
    # its title held " (3 questions)" in English).
    (AddColumn("question_count", "INTEGER"),),
)
"""Schema version N is reached by running the statements of `MIGRATIONS[N - 1]`. Times are Unix
seconds (`asked_at`, `deadline_at`, `ended_at`: wall clock, comparable between processes);
`options` is JSON, `response` the normalized `ProvideChoiceResponse` as JSON; `transport_label` and
`transport_where` are its transport's `TransportKind.label` and `.inbox` (NULL in rows recorded
before version 2: read from the transport table then); `alert_failed` says which alert could not be
delivered and why (NULL: none failed); `transport` is `_records.NOT_SHOWN` for a question answered before
anyone was asked, `answered_by` the response's (`person`, `answers_file`, `nobody`; NULL while it
waits); `person` who answered, as a surface many may answer on names them (the ending's `person`:
"ada (U0ADA)" in Slack; NULL where the surface cannot tell); `question_count` how many questions a
batch holds (NULL: one question)."""


class HistoryUnavailable(Exception):
    """The history cannot be used; the message says why and what to do, in English (`str`), or in
    the person's language (`said`: `provide-choice history` speaks theirs)."""

    def __init__(self, message: str, **values: object) -> None:
        self.message = message
        self.values = values
        super().__init__(self.said(ENGLISH))

    def said(self, translation: Translation) -> str:
        values = {
            name: value.said(translation) if isinstance(value, HistoryUnavailable) else value
            for name, value in self.values.items()
        }
        return translation.gettext(self.message, **values)


class HistoryMissing(HistoryUnavailable):
    """Nothing was recorded yet: there is no history file (readers do not create one)."""


def data_directory() -> Path:
    """`$AGENT_CHOICES_HOME`, else the platform's user data directory (the history, the inbox's
    address): beside the settings when the variable is set, as for the settings file."""
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home).expanduser()
    import platformdirs  # only needed when no override is set

    return Path(platformdirs.user_data_dir(APPLICATION_NAME, appauthor=False))


def history_path() -> Path:
    return data_directory() / HISTORY_FILE_NAME


def open_history(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """A connection to the history at `path`, migrated to the current schema. Raises
    `HistoryUnavailable` saying why it cannot be used; without `create`, also when it does not exist.

    The file is private to the person (mode 600: it holds their answers and the questions'
    addresses); SQLite gives its WAL files the same mode.
    """
    # Deferred for start-up time: loaded only when this runs.
    import sqlite3

    try:
        if create:
            private_directory(path.parent)
            os.close(os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE))
        elif not path.exists():
            raise HistoryMissing(
                N_("no question has been recorded yet (history: {path})"), path=path
            )
        connection = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as error:
        raise unavailable(path, error) from None
    try:
        # Before anything writes to it: a file from a newer version must stay as it is.
        _check_version(connection.execute("PRAGMA user_version").fetchone()[0], len(MIGRATIONS))
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")  # safe in WAL; no fsync per write
        connection.execute("PRAGMA secure_delete = ON")  # a deleted question leaves no bytes behind
        connection.create_function("folded", 1, _folded, deterministic=True)
        connection.row_factory = sqlite3.Row
        migrate(connection)
    except (sqlite3.Error, HistoryUnavailable) as error:
        connection.close()
        raise unavailable(path, error) from None
    return connection


def migrate(connection: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> None:
    """Bring the schema to `len(migrations)`, one version at a time, in one transaction (another
    process migrating at the same moment waits, then finds nothing left to do). Raises
    `HistoryUnavailable` for a file from a newer version, which this one must not write to."""
    with transaction(connection):
        version: int = connection.execute("PRAGMA user_version").fetchone()[0]
        _check_version(version, len(migrations))
        for number in range(version, len(migrations)):
            for step in migrations[number]:
                if isinstance(step, str):
                    connection.execute(step)
                elif step.name not in _columns(connection):
                    connection.execute(f"ALTER TABLE questions ADD COLUMN {step.name} {step.type}")
            connection.execute(f"PRAGMA user_version = {number + 1}")


def _columns(connection: sqlite3.Connection) -> set[str]:
    return {row[1] for row in connection.execute("PRAGMA table_info(questions)")}


def _check_version(version: int, known: int) -> None:
    if version > known:
        raise HistoryUnavailable(
            N_(
                "it was written by a newer version of agent-choices: schema {version}, this "
                "version knows up to {known}"
            ),
            version=version,
            known=known,
        )


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction holding the write lock from its start; rolled back on any error."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def prune(
    connection: sqlite3.Connection, settings: InteractionSettings, now: float | None = None
) -> int:
    """Delete what the person's settings say must go (at a server's start): questions asked more
    than `history_days` ago, and questions whose server stopped before they ended, when they are
    that old or history is off. Returns how many went."""
    cutoff = (time.time() if now is None else now) - settings.history_days * 86_400
    with transaction(connection):
        deleted = connection.execute(
            "DELETE FROM questions WHERE ended_at IS NOT NULL AND asked_at < ?", (cutoff,)
        ).rowcount
        servers = connection.execute(
            "SELECT DISTINCT server_pid, server_start FROM questions WHERE ended_at IS NULL"
        ).fetchall()
        for pid, start in servers:
            if not is_running(ProcessIdentity(pid, start)):
                deleted += connection.execute(
                    "DELETE FROM questions WHERE ended_at IS NULL AND server_pid = ? "
                    "AND server_start IS ? AND (asked_at < ? OR ?)",
                    (pid, start, cutoff, not settings.keep_history),
                ).rowcount
    return int(deleted)


def overwrite_log(connection: sqlite3.Connection) -> None:
    """Deleted rows are zeroed in the database (secure_delete), but their earlier versions stay in
    the write-ahead log until it restarts: copy the log back and truncate it now. Best effort and
    brief: readers that hold the log make it wait at most half a second."""
    # Deferred for start-up time: loaded only when this runs.
    import sqlite3

    with suppress(sqlite3.Error):
        connection.execute("PRAGMA busy_timeout = 500")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")


def clear(connection: sqlite3.Connection) -> tuple[int, int]:
    """Delete every question but those waiting in a running server (their servers complete them
    when they end). Returns how many went and how many are still waiting."""
    with transaction(connection):
        keep = [question.key for question in waiting(connection)]
        marks = ", ".join("?" * len(keep))
        deleted = connection.execute(
            f"DELETE FROM questions WHERE rowid NOT IN ({marks})", keep
        ).rowcount
    overwrite_log(connection)
    return int(deleted), len(keep)


def unavailable(path: Path, error: Exception) -> HistoryUnavailable:
    """The history at `path` cannot be used, for `error` (ours, said in the reader's language;
    the system's or SQLite's, as they word it)."""
    reason: object = error
    if not isinstance(error, HistoryUnavailable):
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return HistoryUnavailable(
        N_("the history {path} cannot be used ({reason}); move the file away to start a new one"),
        path=path,
        reason=reason,
    )


def is_busy(error: Exception) -> bool:
    """Whether `error` is another process holding the database, which a later try may not meet
    (SQLite's own error, or ours wrapping it)."""
    if isinstance(error, HistoryUnavailable):
        reason = error.values.get("reason")
        return isinstance(reason, str) and is_busy(Exception(reason))
    text = str(error)
    return "locked" in text or "busy" in text


def _folded(text: str | None) -> str:
    return (text or "").casefold()
