"""The history store: one SQLite file that every server of a person writes at once, migrated from
its first schema version on, pruned at start-up, and never a reason for a question to fail."""

from __future__ import annotations

import json
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from mcp import Client
from mcp_types import Implementation

from present_choices._translation import translation
from provide_choice import (
    Answered,
    BatchAnswered,
    BatchRequest,
    Cancelled,
    InteractionSettings,
    PendingQuestion,
    QuestionRegistry,
    create_server,
    normalize,
    parse_call,
    parse_request,
)
from provide_choice._history._process import ProcessIdentity, is_running, this_process
from provide_choice._history._recorder import HistoryRecorder
from provide_choice._history._records import recent, search, waiting
from provide_choice._history._store import (
    MIGRATIONS,
    HistoryMissing,
    HistoryUnavailable,
    clear,
    history_path,
    migrate,
    open_history,
    prune,
    unavailable,
)
from provide_choice._question import AgentClient, Interaction
from provide_choice.transports import TransportSetup

REQUEST = parse_request(
    {
        "title": "Deploy",
        "prompt": "Which service first?",
        "selection_mode": "single",
        "options": [
            {"id": "api", "label": "API", "recommended": True},
            {"id": "web", "label": "Web"},
        ],
    }
)
CLIENT = AgentClient("editor-one", "1.4.2")
DAY = 86_400


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "history.sqlite3"


@pytest.fixture
def recorder(path: Path) -> Iterator[HistoryRecorder]:
    recorder = HistoryRecorder(path, settings=InteractionSettings).start()
    yield recorder
    recorder.close()


def ask(
    registry: QuestionRegistry,
    seconds: float = 300,
    settings: InteractionSettings | None = None,
    client: AgentClient | None = CLIENT,
) -> PendingQuestion:
    interaction = Interaction.start(REQUEST, settings or InteractionSettings(), client=client)
    interaction = Interaction(
        REQUEST, interaction.settings, time.monotonic() + seconds, client=client
    )
    return registry.create(interaction, "web")


def rows(path: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(path) as connection:
        connection.row_factory = sqlite3.Row
        return [dict(row) for row in connection.execute("SELECT * FROM questions")]


def file_bytes(path: Path) -> bytes:
    return path.read_bytes()


def history_files(path: Path) -> dict[str, bytes]:
    """The database and its write-ahead log and index, as they are on disk."""
    return {
        file.name: file.read_bytes()
        for file in path.parent.iterdir()
        if file.name.startswith(path.name)
    }


def test_the_history_lives_in_the_user_data_directory_or_in_agent_choices_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AGENT_CHOICES_HOME", raising=False)
    data = Path(platformdirs.user_data_dir("agent-choices", appauthor=False))
    assert history_path() == data / "history.sqlite3"
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    assert history_path() == tmp_path / "history.sqlite3"


def test_a_new_history_is_at_the_latest_schema_in_wal_mode_and_private(path: Path) -> None:
    connection = open_history(path)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA busy_timeout").fetchone()[0] >= 5_000
    connection.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert open_history(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_readers_never_create_the_file(path: Path) -> None:
    with pytest.raises(HistoryMissing):
        open_history(path, create=False)
    assert not path.exists()


def test_migrations_run_in_order_from_the_version_the_file_has(path: Path) -> None:
    steps = [
        ["CREATE TABLE first (a)"],
        ["CREATE TABLE second (b)", "INSERT INTO second VALUES ('from 2')"],
        ["ALTER TABLE second ADD COLUMN c DEFAULT 'from 3'"],
    ]
    path.parent.mkdir()
    connection = sqlite3.connect(path, isolation_level=None)
    migrate(connection, steps[:1])
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 1
    migrate(connection, steps)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 3
    assert connection.execute("SELECT b, c FROM second").fetchall() == [("from 2", "from 3")]
    migrate(connection, steps)  # nothing left to do: nothing runs twice
    assert connection.execute("SELECT count(*) FROM second").fetchone()[0] == 1


def schema(connection: sqlite3.Connection) -> set[tuple[str, str]]:
    return {(row[1], row[2]) for row in connection.execute("PRAGMA table_info(questions)")}


FIRST_ROW = (
    "INSERT INTO questions (id, title, prompt, selection_mode, options, transport, server_pid, "
    "asked_at, deadline_at, action_status, response) VALUES "
    "('q', 't', 'p', 'single', '[]', '', 1, 0, 0, 'selected', '{}')"
)


@pytest.mark.parametrize(
    "version_3",
    [
        ["ALTER TABLE questions ADD COLUMN alert_failed TEXT"],  # the alerts' (issue 28)
        [  # an early build of issue 29's, where a rule of the answers file had answered
            "ALTER TABLE questions ADD COLUMN answered_by TEXT",
            "UPDATE questions SET answered_by = 'answers_file'",
        ],
    ],
    ids=["alerts-first", "answered-by-first"],
)
def test_a_history_at_either_version_3_ends_as_a_new_one_with_what_it_recorded(
    path: Path, version_3: list[str]
) -> None:
    new = schema(open_history(path.with_name("new.sqlite3")))
    assert {("alert_failed", "TEXT"), ("answered_by", "TEXT")} <= new
    old = sqlite3.connect(path, isolation_level=None)
    migrate(old, MIGRATIONS[:2])
    old.execute(FIRST_ROW)
    migrate(old, [*MIGRATIONS[:2], version_3])
    migrate(old)
    assert old.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert schema(old) == new
    answered_by = old.execute("SELECT answered_by FROM questions").fetchone()[0]
    assert answered_by == ("answers_file" if "answered_by" in version_3[0] else "person")


def test_a_failing_migration_leaves_the_file_at_the_version_it_had(path: Path) -> None:
    path.parent.mkdir()
    connection = sqlite3.connect(path, isolation_level=None)
    migrate(connection, [["CREATE TABLE first (a)"]])
    with pytest.raises(sqlite3.OperationalError):
        migrate(connection, [["CREATE TABLE first (a)"], ["CREATE TABLE half (a)", "NOT SQL"]])
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 1
    tables = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == [("first",)]


def test_a_history_from_a_newer_version_is_left_alone(path: Path) -> None:
    path.parent.mkdir()
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    before = path.read_bytes()
    with pytest.raises(HistoryUnavailable, match="written by a newer version of agent-choices"):
        open_history(path)
    assert path.read_bytes() == before


async def test_a_question_is_recorded_when_asked_and_completed_when_it_ends(
    path: Path, recorder: HistoryRecorder
) -> None:
    registry = QuestionRegistry(recorder=recorder)
    before = time.time()
    question = ask(registry)
    question.show_at("http://127.0.0.1:5000/choice/" + question.id)
    assert recorder.flush(5)
    (row,) = rows(path)
    assert row["title"] == "Deploy"
    assert row["prompt"] == "Which service first?"
    assert row["selection_mode"] == "single"
    assert json.loads(row["options"]) == [
        {"id": "api", "label": "API", "description": None, "recommended": True},
        {"id": "web", "label": "Web", "description": None, "recommended": False},
    ]
    assert (row["client_name"], row["client_version"]) == ("editor-one", "1.4.2")
    assert (row["transport"], row["url"]) == ("web", question.url)
    assert before <= float(row["asked_at"]) <= time.time()
    assert row["deadline_at"] == pytest.approx(before + 300, abs=2)
    assert (row["ended_at"], row["response"]) == (None, None)
    (shown,) = waiting(open_history(path))
    assert (shown.title, shown.client, shown.state) == ("Deploy", CLIENT, "waiting")

    question.finish(Answered(selected_ids=["web"]))
    assert recorder.flush(5)
    (row,) = rows(path)
    expected = normalize(REQUEST, Answered(selected_ids=["web"]), "web", url=question.url)
    assert json.loads(row["response"]) == expected.model_dump(mode="json")
    assert row["action_status"] == "selected"
    assert float(row["asked_at"]) <= float(row["ended_at"]) <= time.time()
    assert waiting(open_history(path)) == []
    (ended,) = recent(open_history(path))
    assert ended.selection is not None
    assert ended.selection["summary"] == "Selected: Web."


async def test_a_batch_is_one_row_with_its_title_and_the_number_of_questions(
    path: Path, recorder: HistoryRecorder
) -> None:
    question_fields = REQUEST.model_dump(
        by_alias=True, include={"prompt", "selection_mode", "options"}
    )
    batch = parse_call(
        {
            "title": "Deploy",
            "questions": [
                question_fields | {"id": "first", "header": "Order"},
                {
                    "id": "note",
                    "prompt": "Anything to tell the team?",
                    "selection_mode": "text_input",
                },
            ],
        }
    )
    assert isinstance(batch, BatchRequest)
    registry = QuestionRegistry(recorder=recorder)
    question = registry.create(Interaction.start(batch, InteractionSettings()), "web")
    assert recorder.flush(5)
    (row,) = rows(path)
    assert row["title"] == "Deploy"
    assert row["question_count"] == 2
    assert row["prompt"] == "Order: Which service first? / note: Anything to tell the team?"
    assert row["selection_mode"] == "batch"
    assert [option["id"] for option in json.loads(row["options"])] == ["api", "web"]
    (shown,) = waiting(open_history(path))
    assert shown.shown_title() == "Deploy (2 questions)"
    assert shown.shown_title(translation("zh_Hans")) == "Deploy（2 个问题）"
    outcome = BatchAnswered(
        answers={
            "first": Answered(selected_ids=["api"]),
            "note": Answered(custom_input="Friday"),
        }
    )
    question.finish(outcome)
    assert recorder.flush(5)
    (ended,) = recent(open_history(path))
    assert ended.selection is not None
    assert ended.selection["summary"] == (
        'Answered 2 questions. Order: Selected: API. note: Answered in their own words: "Friday".'
    )


async def test_a_longer_deadline_is_recorded_as_a_later_wall_clock_time(
    path: Path, recorder: HistoryRecorder
) -> None:
    question = ask(QuestionRegistry(recorder=recorder), seconds=60)
    question.extend_deadline(900)
    assert recorder.flush(5)
    (row,) = rows(path)
    assert row["deadline_at"] == pytest.approx(time.time() + 900, abs=2)


async def test_the_mcp_clients_name_and_version_are_recorded(
    path: Path, recorder: HistoryRecorder
) -> None:
    class AnswerAtOnce:
        cancelled_with_the_call = True
        bounded_wait = True

        async def show(self, question: PendingQuestion, caller: object) -> None:
            question.finish(Answered(selected_ids=["api"]))

    server = create_server(
        {"terminal": AnswerAtOnce()}, setup=TransportSetup(QuestionRegistry(recorder=recorder))
    )
    client_info = Implementation(name="editor-two", version="0.9")
    async with Client(server, client_info=client_info) as client:
        result = await client.call_tool("provide_choice", REQUEST.model_dump(by_alias=True))
    assert not result.is_error
    assert recorder.flush(5)
    (row,) = rows(path)
    assert (row["client_name"], row["client_version"], row["transport"]) == (
        "editor-two",
        "0.9",
        "terminal",
    )
    assert json.loads(row["response"]) == result.structured_content


async def test_with_keep_history_off_nothing_stays_once_the_question_ends(path: Path) -> None:
    recorder = HistoryRecorder(path, settings=lambda: InteractionSettings(keep_history=False))
    recorder.start()
    registry = QuestionRegistry(recorder=recorder)
    kept = ask(registry)
    kept.show_at("http://127.0.0.1:5000/choice/" + kept.id)
    secret = "Rotate the production signing key " + "x" * 3_900  # past one page: overflow pages
    question = registry.create(
        Interaction.start(
            parse_request(REQUEST.model_dump(by_alias=True) | {"prompt": secret}),
            InteractionSettings(),
        ),
        "web",
    )
    assert recorder.flush(5)
    assert len(waiting(open_history(path))) == 2  # the inbox shows it while it waits
    question.finish(Cancelled())
    assert recorder.flush(5)
    recorder.close()
    assert [row["id"] for row in rows(path)] == [kept.id]
    for name, content in history_files(path).items():
        assert b"Rotate the production signing key" not in content, name


async def test_keep_history_switched_off_on_the_questions_own_page_deletes_it(
    path: Path, recorder: HistoryRecorder
) -> None:
    question = ask(QuestionRegistry(recorder=recorder))
    await question.apply_settings({"keep_history": False})
    question.finish(Answered(selected_ids=["api"]))
    assert recorder.flush(5)
    assert rows(path) == []


@pytest.fixture
def corrupt(path: Path) -> Path:
    path.parent.mkdir()
    path.write_bytes(b"this is not a database, it only has the name of one" * 100)
    return path


async def test_a_corrupt_file_costs_one_warning_and_questions_still_end(
    corrupt: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corrupt
    recorder = HistoryRecorder(path, settings=InteractionSettings).start()
    registry = QuestionRegistry(recorder=recorder)
    questions = [ask(registry) for _ in range(3)]
    for question in questions:
        assert question.finish(Answered(selected_ids=["api"]))
        assert await question.wait() == Answered(selected_ids=["api"])
    assert recorder.flush(5)
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1
    assert warning.startswith(f"provide-choice: warning: the history {path} cannot be used (")
    assert "questions are still asked, but not recorded" in warning
    assert file_bytes(path).startswith(b"this is not a database")


async def test_regression_a_lock_met_while_opening_the_history_is_waited_out_not_a_warning(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Several servers starting at once on a new history: one of them met "database is locked"
    # while setting it up (a lock SQLite's busy timeout does not wait for) and recorded nothing.
    opened: list[Path] = []

    def locked_once(where: Path) -> sqlite3.Connection:
        opened.append(where)
        if len(opened) == 1:
            raise unavailable(where, sqlite3.OperationalError("database is locked"))
        return open_history(where)

    monkeypatch.setattr("provide_choice._history._recorder.open_history", locked_once)
    recorder = HistoryRecorder(path, settings=InteractionSettings).start()
    ask(QuestionRegistry(recorder=recorder)).finish(Answered(selected_ids=["api"]))
    assert recorder.flush(5)
    assert capsys.readouterr().err == ""
    assert len(opened) == 2
    assert len(rows(path)) == 1


async def test_a_history_that_cannot_be_created_costs_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data").write_text("a file where the directory should be")
    recorder = HistoryRecorder(tmp_path / "data" / "history.sqlite3", settings=InteractionSettings)
    registry = QuestionRegistry(recorder=recorder.start())
    ask(registry).finish(Cancelled())
    assert recorder.flush(5)
    assert capsys.readouterr().err.count("provide-choice: warning: the history") == 1


def test_start_up_prunes_what_is_older_than_history_days_and_what_its_server_left(
    path: Path,
) -> None:
    connection = open_history(path)
    now = time.time()
    dead = ProcessIdentity(_dead_pid(), None)
    alive = this_process()

    def insert(name: str, days_ago: float, ended: bool, server: ProcessIdentity) -> None:
        asked = now - days_ago * DAY
        connection.execute(
            "INSERT INTO questions (id, title, prompt, selection_mode, options, transport, "
            "server_pid, server_start, asked_at, deadline_at, ended_at) "
            "VALUES (?, ?, '', 'single', '[]', 'web', ?, ?, ?, ?, ?)",
            (name, name, server.pid, server.start, asked, asked + 300, asked if ended else None),
        )

    insert("old answer", 31, True, alive)
    insert("recent answer", 29, True, alive)
    insert("old and still waiting", 31, False, alive)
    insert("old, its server died", 31, False, dead)
    insert("recent, its server died", 1, False, dead)
    assert prune(connection, InteractionSettings(history_days=30), now) == 2
    titles = {question.title for question in search(connection, limit=10)}
    assert titles == {"recent answer", "old and still waiting", "recent, its server died"}
    assert prune(connection, InteractionSettings(history_days=30, keep_history=False), now) == 1
    assert "recent, its server died" not in {q.title for q in search(connection, limit=10)}


def test_a_server_that_died_is_no_longer_waiting_and_its_questions_read_as_unfinished(
    path: Path,
) -> None:
    connection = open_history(path)
    for name, server in (("alive", this_process()), ("dead", ProcessIdentity(_dead_pid(), None))):
        connection.execute(
            "INSERT INTO questions (id, title, prompt, selection_mode, options, transport, "
            "server_pid, server_start, asked_at, deadline_at) "
            "VALUES (?, ?, '', 'single', '[]', 'web', ?, ?, ?, ?)",
            (name, name, server.pid, server.start, time.time(), time.time() + 300),
        )
    assert [question.title for question in waiting(connection)] == ["alive"]
    states = {question.title: question.state for question in search(connection, limit=10)}
    assert states == {"alive": "waiting", "dead": "unfinished"}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_zombie_or_another_process_on_the_same_pid_is_not_the_server() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child.pid}/stat").read_text().split(")")[-1].split()[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not is_running(ProcessIdentity(child.pid, None))  # exited, not yet reaped
    child.wait()
    me = this_process()
    assert is_running(me)
    assert not is_running(ProcessIdentity(me.pid, "1"))  # same pid, another start time


async def test_clearing_keeps_only_questions_still_waiting(
    path: Path, recorder: HistoryRecorder
) -> None:
    registry = QuestionRegistry(recorder=recorder)
    ended = ask(registry)
    ended.finish(Cancelled())
    still = ask(registry)
    assert recorder.flush(5)
    assert clear(open_history(path)) == (1, 1)
    assert [row["id"] for row in rows(path)] == [still.id]


async def test_search_ignores_case_beyond_ascii_and_looks_in_answers(
    path: Path, recorder: HistoryRecorder
) -> None:
    registry = QuestionRegistry(recorder=recorder)
    request = parse_request(REQUEST.model_dump(by_alias=True) | {"title": "Übersetzung wählen"})
    question = registry.create(Interaction.start(request, InteractionSettings()), "web")
    question.finish(Answered(selected_ids=["web"], global_annotation="Straße"))
    ask(registry)
    assert recorder.flush(5)
    connection = open_history(path)
    assert [q.title for q in search(connection, limit=5, text="ÜBERSETZUNG")] == [request.title]
    assert [q.title for q in search(connection, limit=5, text="straße")] == [request.title]
    assert [q.title for q in search(connection, limit=5, text="deploy")] == ["Deploy"]
    assert len(search(connection, limit=1)) == 1


WRITER = textwrap.dedent(
    """
    import asyncio, sys, time
    from pathlib import Path
    from provide_choice import Answered, InteractionSettings, QuestionRegistry, parse_request
    from provide_choice._history._recorder import HistoryRecorder
    from provide_choice._question import AgentClient, Interaction

    REQUEST = parse_request({"title": "Deploy", "prompt": "Which?", "selection_mode": "single",
        "options": [{"id": "a", "label": "A", "recommended": True}, {"id": "b", "label": "B"}]})

    async def main() -> None:
        recorder = HistoryRecorder(Path(sys.argv[1]), settings=InteractionSettings).start()
        registry = QuestionRegistry(recorder=recorder)
        client = AgentClient(sys.argv[2], "1")
        start = float(sys.argv[4])
        while time.time() < start:
            await asyncio.sleep(0.001)
        questions = [registry.create(Interaction.start(REQUEST, InteractionSettings(), client=client), "web")
                     for _ in range(int(sys.argv[3]))]
        for question in questions:
            question.show_at("http://127.0.0.1:1/choice/" + question.id)
            await asyncio.sleep(0)
        for question in questions:
            question.finish(Answered(selected_ids=["b"]))
        assert recorder.flush(60)

    asyncio.run(main())
    """
)


def test_several_processes_write_at_once_and_every_question_is_recorded(path: Path) -> None:
    processes, questions = 4, 60
    start = time.time() + 1.5  # all of them start on a file that does not exist yet
    writers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WRITER,
                str(path),
                f"agent-{number}",
                str(questions),
                str(start),
            ],
            stderr=subprocess.PIPE,
            text=True,
        )
        for number in range(processes)
    ]
    errors = [writer.communicate(timeout=90)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0] * processes, errors
    assert errors == [""] * processes  # no warning: nothing was locked out
    recorded = search(open_history(path), limit=1_000)
    assert len(recorded) == processes * questions
    assert {question.action_status for question in recorded} == {"selected"}
    assert all(question.url for question in recorded)
    by_client = {f"agent-{number}": 0 for number in range(processes)}
    for question in recorded:
        assert question.client is not None
        by_client[question.client.name] += 1
    assert set(by_client.values()) == {questions}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid
