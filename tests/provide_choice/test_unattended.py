"""When nobody can answer: the command line's policy (flags, PROVIDE_CHOICE_UNATTENDED, CI), the
reply at once when the server runs unattended or the person is away, `answered_by` in every kind of
response, and how the history and the inbox record who answered."""

from __future__ import annotations

import re
import sqlite3
import time
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from prompts import DATABASE_REQUEST

from present_choices._locale_format import format_moment
from present_choices._translation import ENGLISH
from provide_choice import (
    Answered,
    Cancelled,
    Ending,
    InteractionSettings,
    PendingLaunch,
    PendingQuestion,
    QuestionRegistry,
    TimedOut,
    Transport,
    create_server,
    load_settings,
    normalize,
    parse_request,
    save_settings,
)
from provide_choice._contract._answers_file import load_answers_file
from provide_choice._history._command import table
from provide_choice._history._inbox._server import create_app
from provide_choice._history._inbox._state import InboxState
from provide_choice._history._inbox._token import cookie_name
from provide_choice._history._recorder import HistoryRecorder
from provide_choice._history._records import search
from provide_choice._history._store import MIGRATIONS, migrate, open_history
from provide_choice._server._mcp_server import TOOL_DESCRIPTION
from provide_choice._server._unattended import AnswerPolicy, PolicyError, command_line_policy
from provide_choice._transports._base import Caller, TransportSetup

QUESTION = DATABASE_REQUEST | {"default_selection_ids": ["pg"]}
IN_CI = AnswerPolicy(unattended="the server runs unattended (CI is set)")


def policy(*flags: str, answers: str | None = None, **environ: str) -> AnswerPolicy:
    return command_line_policy(
        "the server",
        attended="--attended" in flags,
        unattended="--unattended" in flags,
        answers=answers,
        environ=environ,
    )


@pytest.mark.parametrize(
    ("flags", "environ", "unattended"),
    [
        ((), {}, None),
        ((), {"CI": "true"}, "the server runs unattended (CI is set)"),
        ((), {"CI": "1"}, "the server runs unattended (CI is set)"),
        ((), {"CI": "TRUE"}, "the server runs unattended (CI is set)"),
        ((), {"CI": "false"}, None),
        ((), {"CI": "0"}, None),
        ((), {"CI": ""}, None),
        (("--attended",), {"CI": "true"}, None),
        (("--attended",), {"PROVIDE_CHOICE_UNATTENDED": "1"}, None),
        (("--unattended",), {}, "the server runs unattended (--unattended)"),
        (
            (),
            {"PROVIDE_CHOICE_UNATTENDED": "1"},
            "the server runs unattended (PROVIDE_CHOICE_UNATTENDED is set)",
        ),
        ((), {"PROVIDE_CHOICE_UNATTENDED": "0", "CI": "true"}, None),
        (
            (),
            {"PROVIDE_CHOICE_UNATTENDED": " ", "CI": "true"},
            "the server runs unattended (CI is set)",
        ),
    ],
)
def test_the_command_line_decides_whether_anyone_is_there_to_ask(
    flags: tuple[str, ...], environ: dict[str, str], unattended: str | None
) -> None:
    assert policy(*flags, **environ).unattended == unattended


def test_a_value_that_means_nothing_is_refused_saying_what_is_allowed() -> None:
    with pytest.raises(
        PolicyError, match=r"must be 1 \(unattended\) or 0 \(attended\), got 'maybe'"
    ):
        policy(PROVIDE_CHOICE_UNATTENDED="maybe")


def test_the_answers_file_comes_from_the_option_else_the_environment(tmp_path: Path) -> None:
    for name in ("flag.json", "variable.json"):
        (tmp_path / name).write_text('{"answers": []}')
    flag, variable = str(tmp_path / "flag.json"), str(tmp_path / "variable.json")
    assert policy(PROVIDE_CHOICE_ANSWERS=variable).answers_file == load_answers_file(variable)
    chosen = policy(answers=flag, PROVIDE_CHOICE_ANSWERS=variable).answers_file
    assert chosen is not None
    assert chosen.name == flag
    with pytest.raises(PolicyError, match="does not exist"):
        policy(answers=str(tmp_path / "missing.json"))


async def ask(
    request: dict[str, Any], server_policy: AnswerPolicy | None = None, **options: Any
) -> dict[str, Any]:
    async with Client(create_server(policy=server_policy, **options)) as client:
        result = await client.call_tool("provide_choice", request)
    assert not result.is_error, result.content
    content: dict[str, Any] = result.structured_content or {}
    return content


async def test_unattended_a_question_gets_its_defaults_at_once_saying_nobody_chose() -> None:
    started = time.monotonic()
    response = await ask(QUESTION, IN_CI)
    assert time.monotonic() - started < 1
    assert (response["action_status"], response["answered_by"]) == ("unattended", "nobody")
    selection = response["selection"]
    assert selection["selected_ids"] == ["pg"]
    assert (selection["transport"], selection["url"]) == (None, None)
    assert selection["summary"] == (
        "Nobody was asked: the server runs unattended (CI is set); defaults returned, not "
        "chosen by a person: PostgreSQL."
    )


async def test_the_unattended_action_may_return_nothing_and_a_question_without_defaults_nothing() -> (
    None
):
    without_defaults = {
        key: value for key, value in QUESTION.items() if key != "default_selection_ids"
    }
    response = await ask(without_defaults, IN_CI)
    assert response["selection"]["selected_ids"] == []
    assert response["selection"]["summary"].endswith("; no defaults to return, nothing selected.")
    save_settings(InteractionSettings(unattended_action="return_nothing"))
    response = await ask(QUESTION, IN_CI)
    assert (response["action_status"], response["selection"]["selected_ids"]) == ("unattended", [])
    assert response["selection"]["summary"].endswith("; nothing selected.")


async def test_an_unattended_batch_returns_each_questions_defaults_in_its_answers() -> None:
    batch = {
        "title": "Project set-up",
        "questions": [
            {key: value for key, value in QUESTION.items() if key != "title"} | {"id": "db"},
            {"id": "name", "prompt": "Its name?", "selection_mode": "text_input"},
        ],
    }
    response = await ask(batch, IN_CI)
    assert response["action_status"] == "unattended"
    assert [answer["selected_ids"] for answer in response["answers"]] == [["pg"], []]
    assert response["selection"]["summary"] == (
        "Nobody was asked: the server runs unattended (CI is set); 2 questions. db: Defaults "
        "returned, not chosen by a person: PostgreSQL. name: No defaults to return, nothing "
        "selected."
    )


class Ends:
    """A transport that ends each question as told at once (or hands it off, or leaves it open)."""

    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, outcome: Ending | PendingLaunch | None) -> None:
        self.outcome = outcome
        self.shown = 0

    async def show(self, question: PendingQuestion, caller: Caller) -> PendingLaunch | None:
        self.shown += 1
        if isinstance(self.outcome, PendingLaunch):
            return self.outcome.model_copy(update={"session_id": question.id})
        if self.outcome is not None:
            question.finish(self.outcome)
        return None


def in_words(until: datetime) -> str:
    """A local time as summaries say it: the time alone today, else the date too."""
    today = until.date() == datetime.now().date()
    return f"{until:%H:%M}" if today else f"{until:%Y-%m-%d %H:%M}"


async def test_away_answers_at_once_until_the_time_set_and_asks_again_after_it() -> None:
    person = Ends(Answered(selected_ids=["lite"]))
    transports: dict[str, Transport] = {"web": person}
    soon = datetime.now() + timedelta(minutes=30)
    save_settings(InteractionSettings(away_until=soon.isoformat(timespec="minutes")))
    response = await ask(QUESTION | {"transport": "web"}, None, transports=transports)
    assert (response["action_status"], response["answered_by"]) == ("unattended", "nobody")
    assert response["selection"]["summary"] == (
        f"Nobody was asked: the person is away until {in_words(soon)} (local time); defaults "
        "returned, not chosen by a person: PostgreSQL."
    )
    assert person.shown == 0
    gone = datetime.now() - timedelta(minutes=1)
    save_settings(InteractionSettings(away_until=gone.isoformat(timespec="minutes")))
    response = await ask(QUESTION | {"transport": "web"}, None, transports=transports)
    assert (response["action_status"], response["answered_by"]) == ("selected", "person")
    assert person.shown == 1


async def test_away_on_another_day_says_the_date_and_an_offset_is_read_as_its_local_time() -> None:
    later = (datetime.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    elsewhere = later.astimezone().astimezone(timezone(timedelta(hours=5, minutes=30)))
    save_settings(InteractionSettings(away_until=elsewhere.isoformat()))
    assert load_settings().away_until == later.isoformat(timespec="minutes")
    response = await ask(QUESTION)
    assert (
        f"the person is away until {later:%Y-%m-%d %H:%M} (local time);"
        in (response["selection"]["summary"])
    )


@pytest.mark.parametrize(
    ("outcome", "action_status", "answered_by"),
    [
        (Answered(selected_ids=["lite"]), "selected", "person"),
        (Cancelled(), "cancelled", "person"),
        (TimedOut(action="return_defaults"), "timeout", "nobody"),
        (None, "pending", "nobody"),
        (
            PendingLaunch(session_id="-", url="http://127.0.0.1:1", command="run"),
            "pending_terminal_launch",
            "nobody",
        ),
    ],
)
async def test_every_kind_of_response_says_who_answered(
    outcome: Ending | PendingLaunch | None, action_status: str, answered_by: str
) -> None:
    transports: dict[str, Transport] = {"web": Ends(outcome)}
    response = await ask(QUESTION, None, transports=transports, max_wait_seconds=0.05)
    assert (response["action_status"], response["answered_by"]) == (action_status, answered_by)


def test_the_tool_tells_the_agent_what_unattended_means_and_who_answered() -> None:
    description = " ".join(TOOL_DESCRIPTION.split())
    assert "unattended" in description
    assert (
        "nobody chose; go on only with what the defaults allow, or stop and say what needs a person"
        in description
    )
    assert "answered_by" in description


async def test_the_history_records_who_answered_and_that_nothing_was_shown(
    home: Path, tmp_path: Path
) -> None:
    recorder = HistoryRecorder(home / "history.sqlite3", settings=InteractionSettings).start()
    setup = TransportSetup(QuestionRegistry(recorder=recorder))
    rules = tmp_path / "answers.json"
    rules.write_text('{"answers": [{"title": "From the file", "selected_ids": ["lite"]}]}')
    file_and_ci = AnswerPolicy(load_answers_file(str(rules)), IN_CI.unattended)
    async with Client(create_server(setup=setup, policy=file_and_ci)) as client:
        await client.call_tool("provide_choice", QUESTION | {"title": "From the file"})
        await client.call_tool("provide_choice", QUESTION | {"title": "Nobody there"})
    assert recorder.flush(5)
    recorder.close()
    with closing(open_history(home / "history.sqlite3")) as connection:
        nobody, from_file = search(connection, limit=5)
    assert (from_file.answered_by, from_file.transport, from_file.transport_label) == (
        "answers_file",
        None,
        "Not shown",
    )
    assert (nobody.answered_by, nobody.action_status) == ("nobody", "unattended")
    assert from_file.as_json()["answered_by"] == "answers_file"
    assert from_file.as_json()["transport"] is None
    lines = table([nobody, from_file], None)
    assert re.split(r"\s{2,}", lines[1])[2:4] == ["Not shown", "nobody"]
    assert re.split(r"\s{2,}", lines[2])[2:4] == ["Not shown", "answers file"]
    recent = {
        row["title"]: row
        for row in InboxState(home / "history.sqlite3").snapshot(ENGLISH)["recent"]
    }
    assert recent["From the file"]["answered_by"] == "answers_file"
    assert recent["Nobody there"]["action_status"] == "unattended"


def test_a_history_from_before_says_who_answered_by_how_each_question_ended(
    tmp_path: Path,
) -> None:
    request = parse_request(QUESTION)
    connection = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    migrate(connection, MIGRATIONS[:2])
    row = (
        "INSERT INTO questions (id, title, prompt, selection_mode, options, transport, "
        "server_pid, asked_at, deadline_at, action_status, response) "
        "VALUES (?, 't', 'p', 'single', '[]', 'web', 1, 0, 0, ?, ?)"
    )
    endings: dict[str, Ending | None] = {
        "answered": Answered(selected_ids=["lite"]),
        "cancelled": Cancelled(),
        "by-the-agent": Cancelled(by="agent"),
        "timed-out": TimedOut(action="return_defaults"),
        "waiting": None,
    }
    for key, ending in endings.items():
        response = None if ending is None else normalize(request, ending, "web")
        status = None if response is None else response.action_status
        stored = None if response is None else response.model_dump_json(exclude={"answered_by"})
        connection.execute(row, (key, status, stored))
    migrate(connection)
    assert dict(connection.execute("SELECT id, answered_by FROM questions").fetchall()) == {
        "answered": "person",
        "cancelled": "person",
        "by-the-agent": "nobody",
        "timed-out": "nobody",
        "waiting": None,
    }


@pytest.fixture
async def inbox(home: Path) -> Any:
    state = InboxState(home / "history.sqlite3")
    transport = httpx.ASGITransport(app=create_app(state, lambda: 8766, "token"))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:8766", cookies={cookie_name(8766): "token"}
    ) as client:
        yield client


async def test_the_inbox_sets_the_person_away_for_a_while_and_back(
    inbox: httpx.AsyncClient,
) -> None:
    before = datetime.now()
    response = await inbox.post("/away", json={"away_for_minutes": 90})
    assert response.status_code == 200
    until = datetime.fromisoformat(load_settings().away_until or "")
    assert timedelta(minutes=89) <= until - before <= timedelta(minutes=90)
    # The page says it as the person's language writes a time (test_inbox.py has the words).
    assert response.json()["state"]["away_until"] == format_moment(until, ENGLISH, datetime.now())
    response = await inbox.post("/away", json={"away_for_minutes": None})
    assert response.json()["state"]["away_until"] is None
    assert load_settings().away_until is None


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"away_for_minutes": 0},
        {"away_for_minutes": "60"},
        {"away_for_minutes": True},
        [],
        {"away_for_minutes": 10**6},
    ],
)
async def test_the_inbox_refuses_an_absence_it_cannot_set(
    inbox: httpx.AsyncClient, body: object
) -> None:
    response = await inbox.post("/away", json=body)
    assert response.status_code == 422
    (problem,) = response.json()["problems"]
    assert "whole minutes from 1 to 20160, or null" in problem
    assert load_settings().away_until is None


def test_settings_take_away_as_a_local_time_and_refuse_what_is_not_one() -> None:
    settings = InteractionSettings(away_until="2026-11-30T18:00:00")
    assert settings.away_until == "2026-11-30T18:00"
    with pytest.raises(ValueError, match="must be an ISO 8601 date and time"):
        InteractionSettings(away_until="after lunch")
