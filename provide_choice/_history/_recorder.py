"""Recording a server's questions in the history, without ever making a question wait for it.

The registry tells the recorder when a question is asked, when its address or deadline changes and
when it ends (`QuestionRecorder`); that happens in the server's event loop, so the recorder only
builds a row there and queues it. One thread per process opens the database (migrating and pruning
it), then writes what is queued, several writes per transaction when they pile up. When the
database cannot be used, the thread warns once and drops every write after that.
"""

from __future__ import annotations

import atexit
import json
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._batch_response import respond
from provide_choice._contract._outcomes import Ending, FromAnswersFile, NobodyAsked
from provide_choice._contract._response import ProvideChoiceResponse
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import TransportName
from provide_choice._history._process import ProcessIdentity, this_process
from provide_choice._history._records import NOT_SHOWN, transport_words
from provide_choice._history._store import (
    HistoryUnavailable,
    history_path,
    is_busy,
    open_history,
    overwrite_log,
    prune,
    transaction,
    unavailable,
)
from provide_choice._notices import warn
from provide_choice._settings_file import load_settings

if TYPE_CHECKING:
    import sqlite3

    from provide_choice._question import PendingQuestion, SettledQuestion

    AnyQuestion = PendingQuestion | SettledQuestion

BUSY_RETRIES = 3
"""Transactions tried (each waiting out the busy timeout) before queued writes are given up."""
BUSY_PAUSE_SECONDS = 0.1
"""How long a history that could not be opened for a lock waits before trying again (times the
attempt)."""
BATCH_LIMIT = 64
"""Queued writes committed in one transaction at most."""
CLIENT_TEXT_LIMIT = 100
"""Characters kept of a client's name and version: a client names itself, at any length."""
EXIT_FLUSH_SECONDS = 2.0
WRITE_DELAY_SECONDS = 0.05
"""How long a write waits before it is made: the moments right after a question is asked (its page
served, its progress sent) belong to the question, and what is asked meanwhile goes in the same
transaction. Well under the 2 s within which the inbox shows a new question."""

Write = Callable[["sqlite3.Connection"], object]


class HistoryRecorder:
    """Records the questions of one server process: the `QuestionRecorder` of its registry."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        settings: Callable[[], InteractionSettings] = load_settings,
    ) -> None:
        self.path = path or history_path()
        self._settings = settings
        self._process = this_process()
        self._queue: queue.SimpleQueue[Write | threading.Event | None] = queue.SimpleQueue()
        self._thread = threading.Thread(
            target=self._run, name="provide-choice-history", daemon=True
        )
        self._unavailable = False
        self._warned = False
        self._erased = False

    def start(self) -> HistoryRecorder:
        self._thread.start()
        return self

    def asked(self, question: AnyQuestion) -> None:
        if not self._unavailable:
            self._queue.put(_insert(_asked_row(question, self._process)))

    def changed(self, question: PendingQuestion) -> None:
        if not self._unavailable:
            self._queue.put(_update(question.id, _where_and_when(question)))

    def shown(self, question: PendingQuestion) -> None:
        """Its address, when it has one, was recorded with `changed`."""

    def ended(self, question: AnyQuestion) -> None:
        if not self._unavailable:
            self._queue.put(self._ending(question))

    def alert_failed(self, question: PendingQuestion, problem: str) -> None:
        """An alert of the question could not be delivered: `problem` says which and why (the
        last one is kept)."""
        if not self._unavailable:
            self._queue.put(_update(question.id, {"alert_failed": problem}))

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything queued so far is written (or dropped); False after `timeout`."""
        if not self._thread.is_alive():
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def close(self, timeout: float = EXIT_FLUSH_SECONDS) -> None:
        """Write what is queued (within `timeout`), then stop the thread."""
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)

    def _ending(self, question: AnyQuestion) -> Write:
        """The write that completes the question's row, or deletes it when history is off: off in
        this question's settings (the person may have just switched it off on its page) or in the
        saved settings when it is written (switched off in any other surface meanwhile)."""
        response = _response(question)
        completion = _update(
            question.id,
            {
                "ended_at": time.time(),
                "action_status": None if response is None else response.action_status,
                "answered_by": None if response is None else response.answered_by,
                "response": None if response is None else response.model_dump_json(),
                "person": getattr(question.outcome, "person", None),
            },
        )
        kept_here = question.interaction.settings.keep_history

        def write(connection: sqlite3.Connection) -> None:
            if kept_here and self._settings().keep_history:
                completion(connection)
            else:
                connection.execute("DELETE FROM questions WHERE id = ?", (question.id,))
                self._erased = True

        return write

    def _run(self) -> None:
        connection = self._open()
        while True:
            batch = self._next_batch()
            writes = [item for item in batch if callable(item)]
            if connection is not None and writes:
                connection = self._write(connection, writes)
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()
            if None in batch:
                break
        if connection is not None:
            connection.close()

    def _next_batch(self) -> list[Write | threading.Event | None]:
        """What is queued, once the first write has waited `WRITE_DELAY_SECONDS` for more (a
        flush or the stop does not wait)."""
        batch = [self._queue.get()]
        ends = time.monotonic() + WRITE_DELAY_SECONDS
        while len(batch) < BATCH_LIMIT and callable(batch[-1]):
            try:
                batch.append(self._queue.get(timeout=max(ends - time.monotonic(), 0)))
            except queue.Empty:
                break
        return batch

    def _open(self) -> sqlite3.Connection | None:
        # Deferred for start-up time: loaded only when this runs.
        import sqlite3

        # Several servers starting at once on a new history, on a busy machine, have met a lock
        # that SQLite's busy timeout did not wait out while one set it up: try again, as a write
        # does.
        for attempt in range(1, BUSY_RETRIES + 1):
            connection = None
            try:
                connection = open_history(self.path)
                prune(connection, self._settings())
                return connection
            except (HistoryUnavailable, sqlite3.Error) as error:
                if connection is not None:
                    connection.close()
                if not is_busy(error) or attempt == BUSY_RETRIES:
                    self._give_up(error)
                    return None
                time.sleep(BUSY_PAUSE_SECONDS * attempt)
        return None

    def _write(
        self, connection: sqlite3.Connection, writes: list[Write]
    ) -> sqlite3.Connection | None:
        """Commit `writes` in one transaction; the connection to go on with, or None when the
        database can no longer be used."""
        # Deferred for start-up time: loaded only when this runs.
        import sqlite3

        for attempt in range(1, BUSY_RETRIES + 1):
            try:
                with transaction(connection):
                    for write in writes:
                        write(connection)
                break
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    connection.close()
                    self._give_up(error)
                    return None
                if attempt == BUSY_RETRIES:  # locked by others for half a minute: lose these
                    self._warn(
                        f"the history {self.path} stayed locked ({error}); some questions were "
                        "not recorded"
                    )
            except sqlite3.Error as error:
                connection.close()
                self._give_up(error)
                return None
        if self._erased:
            self._erased = False
            overwrite_log(connection)
        return connection

    def _give_up(self, error: Exception) -> None:
        self._unavailable = True
        problem = error if isinstance(error, HistoryUnavailable) else unavailable(self.path, error)
        self._warn(f"{problem}; questions are still asked, but not recorded")

    def _warn(self, message: str) -> None:
        """One warning per process: a broken database must not print a line per question."""
        if not self._warned:
            self._warned = True
            warn(message)


BATCH_MODE = "batch"
"""The `selection_mode` a batch's row holds: its questions each have their own."""


def start_recorder() -> HistoryRecorder:
    """The recorder of this server process, writing what is left when the process exits."""
    recorder = HistoryRecorder().start()
    atexit.register(recorder.close)
    return recorder


def asked_columns(asked: Asked) -> dict[str, Any]:
    """What was asked, as a row holds it, wherever rows are shown: its title, prompt, mode and
    options (in the request's own field names: `id`, as the agent sent it)."""
    requests = (
        [item.request for item in asked.questions] if isinstance(asked, BatchRequest) else [asked]
    )
    return {
        "title": asked.title,
        "question_count": len(asked.questions) if isinstance(asked, BatchRequest) else None,
        "prompt": _prompt(asked),
        "selection_mode": BATCH_MODE if isinstance(asked, BatchRequest) else asked.selection_mode,
        "options": [
            option.model_dump(mode="json", by_alias=True)
            for request in requests
            for option in request.options or ()
        ],
    }


def _asked_row(question: AnyQuestion, process: ProcessIdentity) -> dict[str, Any]:
    asked, client = question.interaction.asked, question.interaction.client
    columns = asked_columns(asked)
    return {
        "id": question.id,
        **columns,
        "options": json.dumps(columns["options"], ensure_ascii=False),
        "client_name": None if client is None else client.name[:CLIENT_TEXT_LIMIT],
        "client_version": None if client is None else client.version[:CLIENT_TEXT_LIMIT],
        "transport": question.transport or NOT_SHOWN,
        **transport_words(question.transport),
        "server_pid": process.pid,
        "server_start": process.start,
        "asked_at": time.time(),
    } | _where_and_when(question)


def _prompt(asked: Asked) -> str:
    """A batch's prompt: each question's, after its header (or id)."""
    if not isinstance(asked, BatchRequest):
        return asked.prompt
    return " / ".join(f"{item.name}: {item.request.prompt}" for item in asked.questions)


def _where_and_when(question: AnyQuestion) -> dict[str, Any]:
    """Its address, and its deadline as a wall-clock time, which other processes can compare."""
    return {"url": question.url, "deadline_at": time.time() + question.seconds_left()}


def _insert(row: dict[str, Any]) -> Write:
    names = ", ".join(row)
    values = ", ".join(f":{name}" for name in row)
    return lambda connection: connection.execute(
        f"INSERT OR REPLACE INTO questions ({names}) VALUES ({values})", row
    )


def _update(question_id: str, changes: dict[str, Any]) -> Write:
    assignments = ", ".join(f"{name} = :{name}" for name in changes)
    parameters = changes | {"id": question_id}
    return lambda connection: connection.execute(
        f"UPDATE questions SET {assignments} WHERE id = :id", parameters
    )


def _response(question: AnyQuestion) -> ProvideChoiceResponse | None:
    """The normalized response, as the agent got it (or would have, had it still waited)."""
    if question.outcome is None:
        return None
    return response_to(
        question.interaction.asked, question.outcome, question.transport, question.url
    )


def response_to(
    asked: Asked,
    outcome: Ending | FromAnswersFile | NobodyAsked,
    transport: TransportName | None,
    url: str | None,
) -> ProvideChoiceResponse | None:
    """The normalized response to `asked` ending with `outcome`, or None for an outcome the request
    forbids (it never reaches an agent either)."""
    try:
        return respond(asked, outcome, transport, url=url)
    except ChoicesError:
        return None
