"""`provide-choice history`: a readable table, JSON lines, search, clearing after asking; agent text
stays inert on the terminal, and every mistake exits 2 saying what is allowed."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import socket
from datetime import datetime
from pathlib import Path

import pytest

from present_choices._locale_format import format_date_time
from present_choices._translation import ENGLISH, translation
from provide_choice import (
    Answered,
    Cancelled,
    InteractionSettings,
    QuestionRegistry,
    TimedOut,
    parse_request,
    save_settings,
)
from provide_choice.__main__ import main
from provide_choice._contract._outcomes import Ending
from provide_choice._history._command import columns, show_history
from provide_choice._history._recorder import HistoryRecorder
from provide_choice._history._records import search
from provide_choice._history._store import open_history as open_database
from provide_choice._question import AgentClient, Interaction

JSON_FIELDS = {
    "person",
    "title",
    "prompt",
    "selection_mode",
    "options",
    "client",
    "transport",
    "answered_by",
    "transport_label",
    "asked_at",
    "ended_at",
    "action_status",
    "selection",
    "alert_failed",
}


class Terminal(io.StringIO):
    """Output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def request(title: str, prompt: str = "Which one?") -> dict[str, object]:
    return {
        "title": title,
        "prompt": prompt,
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True},
            {"id": "lite", "label": "SQLite"},
        ],
    }


def record(home: Path, *questions: tuple[dict[str, object], str, Ending | None]) -> None:
    """Ask these questions (request, client name, ending or None to leave it waiting) in order."""

    async def asking() -> None:
        recorder = HistoryRecorder(home / "history.sqlite3", settings=InteractionSettings)
        registry = QuestionRegistry(recorder=recorder.start())
        for data, client, ending in questions:
            interaction = Interaction.start(
                parse_request(data), InteractionSettings(), client=AgentClient(client, "2.1")
            )
            question = registry.create(interaction, "web")
            if ending is not None:
                question.finish(ending)
            await asyncio.sleep(0.01)  # distinct asked_at times: newest first is well defined
        assert recorder.flush(5)
        recorder.close()

    asyncio.run(asking())


def test_the_table_lists_newest_first_when_client_where_who_title_and_outcome(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record(
        home,
        (request("Database"), "editor-one", Answered(selected_ids=["lite"])),
        (request("Deploy target"), "terminal-agent", Cancelled()),
        (request("Cache size"), "editor-two", None),
    )
    assert main(["history"]) == 0
    lines = capsys.readouterr().out.splitlines()
    columns = ["When", "Client", "Where", "Answered by", "Title", "Outcome"]
    assert re.split(r"\s{2,}", lines[0]) == columns
    asked = format_date_time(datetime.now(), ENGLISH)[:10]  # when it was asked, in local time
    assert all(line.startswith(asked) for line in lines[1:])
    width = lines[0].index("Client")
    rows = [
        [cell.strip() for cell in line[width:].split("  ") if cell.strip()] for line in lines[1:]
    ]
    assert rows[0][:4] == ["editor-two 2.1", "The browser", "-", "Cache size"]
    assert rows[0][4] == "waiting (5 minutes left)"
    assert rows[1] == [
        "terminal-agent 2.1",
        "The browser",
        "person",
        "Deploy target",
        "Cancelled by the person; nothing selected.",
    ]
    assert rows[2] == [
        "editor-one 2.1",
        "The browser",
        "person",
        "Database",
        "Selected: SQLite.",
    ]


def test_agent_text_in_the_table_cannot_reach_the_terminal_as_escape_sequences(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A title that would retitle the window, another that reorders the line (bidi override), and
    # a client name with a CSI in its 8-bit form.
    record(
        home,
        (request("Deploy\x1b]0;PWNED\x07 now"), "agent\x9b2J", Cancelled()),
        (request("\u202eevil"), "agent", Cancelled()),
    )
    assert main(["history"]) == 0
    shown = capsys.readouterr().out
    assert "Deploy^[]0;PWNED^G now" in shown
    assert "agent<U+009B>2J" in shown
    assert "<U+202E>evil" in shown
    assert not any(character in shown for character in "\x1b\x07\x9b\u202e")
    assert main(["history", "--json"]) == 0
    lines = capsys.readouterr().out
    assert not any(character in lines for character in "\x1b\x07\x9b\u202e")
    titles = [json.loads(line)["title"] for line in lines.splitlines()]
    assert titles == ["\u202eevil", "Deploy\x1b]0;PWNED\x07 now"]  # the same text, escaped


def test_in_a_narrow_terminal_every_line_fits(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ending = TimedOut(action="return_defaults")
    record(home, (request("A title long enough to be cut " * 5), "editor-one", ending))
    monkeypatch.setattr("shutil.get_terminal_size", lambda: os.terminal_size((70, 24)))
    output = Terminal()
    path = home / "history.sqlite3"
    assert show_history(path, limit=5, text=None, as_json=False, output=output) == 0
    lines = output.getvalue().splitlines()
    assert len(lines) == 2
    assert all(len(line) <= 70 for line in lines), lines
    assert "…" in lines[1]


def test_in_chinese_the_table_is_chinese_and_its_wide_characters_fit(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record(home, (request("数据库的选择" * 8), "editor-one", None))
    monkeypatch.setattr("shutil.get_terminal_size", lambda: os.terminal_size((70, 24)))
    output = Terminal()
    chinese = translation("zh_Hans")
    path = home / "history.sqlite3"
    assert (
        show_history(path, limit=5, text=None, as_json=False, translation=chinese, output=output)
        == 0
    )
    header, row = output.getvalue().splitlines()
    assert header.split() == ["时间", "客户端", "位置", "回答者", "标题", "结果"]
    assert row.startswith(format_date_time(datetime.now(), chinese)[:10])
    assert "浏览器" in row
    assert "等待中" in row
    assert all(columns(line) <= 70 for line in (header, row)), (header, row)


def test_json_is_one_object_a_line_with_the_documented_fields(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record(
        home,
        (request("Database"), "editor-one", Answered(selected_ids=["pg"], global_annotation="ok")),
        (request("Cache size"), "editor-two", None),
    )
    assert main(["history", "--json"]) == 0
    waiting, answered = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert set(answered) == set(waiting) == JSON_FIELDS
    assert answered["title"] == "Database"
    assert answered["prompt"] == "Which one?"
    assert answered["selection_mode"] == "single"
    assert answered["client"] == {"name": "editor-one", "version": "2.1"}
    assert answered["transport"] == "web"
    assert answered["transport_label"] == "The browser"
    assert answered["action_status"] == "selected"
    assert answered["selection"]["selected_ids"] == ["pg"]
    assert answered["selection"]["global_annotation"] == "ok"
    asked, ended = (datetime.fromisoformat(answered[key]) for key in ("asked_at", "ended_at"))
    assert asked.tzinfo is not None
    assert asked <= ended
    assert (waiting["ended_at"], waiting["action_status"], waiting["selection"]) == (
        None,
        None,
        None,
    )


def test_limit_and_search(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record(
        home,
        (request("Database", "Postgres or SQLite?"), "editor-one", Cancelled()),
        (request("Deploy"), "editor-two", Answered(selected_ids=["lite"])),
        (request("Cache"), "editor-one", Cancelled()),
    )
    assert main(["history", "--json", "--limit", "2"]) == 0
    titles = [json.loads(line)["title"] for line in capsys.readouterr().out.splitlines()]
    assert titles == ["Cache", "Deploy"]
    assert main(["history", "--json", "--search", "POSTGRES OR"]) == 0
    titles = [json.loads(line)["title"] for line in capsys.readouterr().out.splitlines()]
    assert titles == ["Database"]
    assert main(["history", "--search", "editor-two"]) == 0
    assert "Deploy" in capsys.readouterr().out
    assert main(["history", "--search", "nowhere"]) == 0
    assert capsys.readouterr().out.startswith("No question holds 'nowhere' (history: ")


def test_clear_with_yes_empties_it_and_keeps_what_still_waits(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record(
        home,
        (request("Database"), "editor-one", Cancelled()),
        (request("Deploy"), "editor-one", Cancelled()),
        (request("Cache"), "editor-one", None),
    )
    assert main(["history", "--clear", "--yes"]) == 0
    assert capsys.readouterr().out == "Deleted 2 questions; 1 still waiting stay until they end.\n"
    remaining = search(open_database(home / "history.sqlite3", create=False), limit=10)
    assert [question.title for question in remaining] == ["Cache"]


@pytest.mark.parametrize(("answer", "left"), [("y\n", 0), ("\n", 1), ("", 1)])
def test_clear_asks_first_and_only_yes_deletes(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    left: int,
) -> None:
    record(home, (request("Database"), "editor-one", Cancelled()))
    monkeypatch.setattr("sys.stdin", Terminal(answer))
    assert main(["history", "--clear"]) == 0
    printed = capsys.readouterr()
    assert printed.err == f"Delete the 1 question in {home / 'history.sqlite3'}? [y/N] "
    assert printed.out == ("Deleted 1 question.\n" if left == 0 else "Nothing deleted.\n")
    assert len(search(open_database(home / "history.sqlite3", create=False), limit=5)) == left


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--limit", "0"], "argument --limit: must be a whole number of questions from 1 to 1000000, got '0'"),
        (["--limit", "ten"], "argument --limit: must be a whole number of questions from 1 to 1000000, got 'ten'"),
        (["--search", " "], "argument --search: must be some text to look for, got nothing"),
        (["--yes"], "--yes only goes with --clear"),
        (["--clear", "--json"], "--clear deletes the whole history; it takes no --json, --limit or --search"),
        (["--clear", "--search", "x"], "--clear deletes the whole history; it takes no --json, --limit or --search"),
        (["--clear"], "--clear asks before it deletes, and stdin is not a terminal to answer in; add --yes to clear without asking"),
        (["--since", "1d"], "unrecognized arguments: --since 1d"),
    ],
)  # fmt: skip
def test_bad_flags_exit_2_saying_what_is_allowed(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    message: str,
) -> None:
    record(home, (request("Database"), "editor-one", Cancelled()))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    try:
        status = main(["history", *arguments])
    except SystemExit as exit:  # argparse's own refusals
        status = int(exit.code or 0)
    assert status == 2
    assert message in capsys.readouterr().err
    assert len(search(open_database(home / "history.sqlite3", create=False), limit=5)) == 1


def test_without_a_history_it_says_so_and_creates_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history"]) == 0
    path = home / "history.sqlite3"
    assert capsys.readouterr().out == f"No question has been recorded yet (history: {path}).\n"
    assert main(["history", "--json"]) == 0
    assert capsys.readouterr().out == ""
    assert not path.exists()


def test_a_corrupt_history_exits_1_saying_what_to_do(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "history.sqlite3").write_bytes(b"not a database" * 500)
    (home / "history.sqlite3").chmod(0o600)  # as the server makes it: nothing to tighten first
    assert main(["history"]) == 1
    assert capsys.readouterr().err == (
        f"provide-choice history: the history {home / 'history.sqlite3'} cannot be used (file is "
        "not a database); move the file away to start a new one\n"
    )


def test_with_keep_history_off_it_says_that_new_questions_are_not_recorded(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record(home, (request("Database"), "editor-one", Cancelled()))
    save_settings(InteractionSettings(keep_history=False))
    assert main(["history"]) == 0
    printed = capsys.readouterr()
    assert "Database" in printed.out
    assert "keep_history is off in your settings" in printed.err


def test_inbox_on_a_taken_port_exits_2_with_the_way_out(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["inbox", "--no-browser", "--port", str(port)]) == 2
    error = capsys.readouterr().err
    assert (
        error
        == f"provide-choice inbox: port {port} on 127.0.0.1 is in use; --port 0 picks a free one\n"
    )
    assert not (home / "inbox.json").exists()
