"""Batches in a real terminal (issue 18): the server's own terminal (`serve --http` in a pty, the
SDK's client asking over HTTP) and the hand-off (`serve` over stdio, its command run in a pty, the
answer polled). One question after another with its chip and place, Shift-Tab back, a review before
sending; previews under the list, digits, a 40-option list filtered as typed; cancel and timeout
half-way keep what was answered; a batch past `--max-wait` is pending, and its poll gets the
answers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pexpect
import pytest
from mcp import Client
from mcp_servers import call, connected, launch, poll, poll_until_ended
from provide_choice_harness import (
    CTRL_C,
    DOWN,
    ENTER,
    SPACE,
    continue_with_settings,
    expect_plain,
    finish,
    run_summary,
    spawn_server_terminal,
)
from question_clock import forward

from provide_choice import InteractionSettings, save_settings

BACK = "\x1b[Z"
"""Shift-Tab: the batch's previous question."""


def options(*labels: str, **previews: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = [
        {"id": label.lower(), "label": label}
        | ({"preview": previews[label]} if label in previews else {})
        for label in labels
    ]
    listed[0]["recommended"] = True
    return listed


DATABASE = {
    "id": "db",
    "header": "Database",
    "prompt": "Which database should I set up?",
    "selection_mode": "single",
    "options": options("PostgreSQL", "SQLite", "DuckDB"),
}
FEATURES = {
    "id": "features",
    "header": "Features",
    "prompt": "Which features go in the first release?",
    "selection_mode": "multi",
    "options": options("Login", "Search", "Export"),
}
NAME = {
    "id": "name",
    "prompt": "What should the service be called?",
    "selection_mode": "text_input",
    "placeholder": "orders",
}
CACHE = {
    "id": "cache",
    "header": "Cache",
    "prompt": "Which cache, if any?",
    "selection_mode": "hybrid",
    "options": options("Redis", "Memcached"),
}
REGION = {
    "id": "region",
    "header": "Region",
    "prompt": "Where should it run?",
    "selection_mode": "single",
    "options": [
        {"id": f"r{number}", "label": f"Region {number}", "recommended": number == 0}
        for number in range(40)
    ],
}
LAYOUT = {
    "id": "layout",
    "header": "Layout",
    "prompt": "Which screens?",
    "selection_mode": "multi",
    "options": options(
        "Dashboard",
        "Settings",
        Dashboard="| part | size |\n|---|---|\n| chart | wide |",
        Settings="```diff\n- theme: light\n+ theme: dark\n```",
    ),
}


def batch(*questions: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"title": "Project set-up", "questions": list(questions), "transport": "terminal"} | top


def answers(response: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {answer["id"]: answer for answer in response["answers"]}


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[pexpect.spawn, str]]:
    """The server in a terminal window of its own, and the URL it serves MCP on."""
    child, url = spawn_server_terminal(tmp_path)
    yield child, url
    child.terminate(force=True)


async def asked_in_terminal(
    terminal: tuple[pexpect.spawn, str], request: dict[str, Any], person: Any
) -> dict[str, Any]:
    """Ask `request` in the server's terminal while `person(child)` types; the response."""
    child, url = terminal
    responses: list[dict[str, Any]] = []
    async with Client(url) as client:

        async def ask() -> None:
            responses.append(await call(client, request))

        async with anyio.create_task_group() as group:
            group.start_soon(ask)
            await anyio.to_thread.run_sync(person, child)
    (response,) = responses
    return response


WHERE = ["server terminal", "hand-off"]


ENGLISH_START = ("Continue with these settings", "[Database] 1 of {count}")
"""The settings screen's entry that keeps them, and the first question's place, in English."""


async def answered(
    where: str,
    tmp_path: Path,
    request: dict[str, Any],
    person: Any,
    start: tuple[str, str] = ENGLISH_START,
) -> dict[str, Any]:
    """`request` asked in the server's terminal or handed off to one, while `person(child)` types
    from its first question on (`start`: the words that come before it); the response."""
    if where == "hand-off":
        status, shown, response = await handed_off(tmp_path, person, request, start)
        assert status == 0, shown
        return response

    def from_the_first_question(child: pexpect.spawn) -> None:
        opening(child, request, start)
        person(child)

    child, url = spawn_server_terminal(tmp_path)
    try:
        return await asked_in_terminal((child, url), request, from_the_first_question)
    finally:
        child.terminate(force=True)


async def test_three_questions_one_after_another_with_back_and_a_review(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    def person(child: pexpect.spawn) -> None:
        continue_with_settings(child)
        expect_plain(child, "[Database] 1 of 3")
        expect_plain(child, "Which database should I set up?")
        expect_plain(child, "1-3 choose")
        child.send("2")  # the digit chooses SQLite and moves on
        expect_plain(child, "[Features] 2 of 3")
        expect_plain(child, "Shift-Tab previous question")
        child.send(SPACE + "3" + ENTER)  # Login by space, Export by its digit
        expect_plain(child, "3 of 3")
        child.send(BACK)  # back to the features: the ticks are as they were
        expect_plain(child, "[Features] 2 of 3")
        child.send("2" + ENTER)  # tick Search too
        expect_plain(child, "3 of 3")
        child.send("billing" + ENTER)
        expect_plain(child, "1. Database: Selected: SQLite.")
        expect_plain(child, "2. Features: Selected: Login, Search, and Export.")
        expect_plain(child, '3. name: Your own answer: "billing".')
        child.send(ENTER)
        expect_plain(child, "Answered 3 questions.")

    response = await asked_in_terminal(terminal, batch(DATABASE, FEATURES, NAME), person)
    assert response["action_status"] == "selected"
    assert response["selection"]["transport"] == "terminal"
    assert answers(response)["db"]["selected_ids"] == ["sqlite"]
    assert answers(response)["features"]["selected_ids"] == ["login", "search", "export"]
    assert answers(response)["name"]["custom_input"] == "billing"


@pytest.mark.parametrize("where", WHERE)
async def test_six_questions_mixing_the_modes_with_previews_and_a_filtered_list_of_forty(
    where: str, tmp_path: Path
) -> None:
    def person(child: pexpect.spawn) -> None:
        child.send(ENTER)  # PostgreSQL, where the list opens
        expect_plain(child, "2 of 6")
        child.send(ENTER)  # features: nothing ticked is refused
        expect_plain(child, "(0 chosen)")
        child.send("1" + ENTER)
        expect_plain(child, "3 of 6")
        child.send(ENTER)  # the suggestion
        expect_plain(child, "[Cache] 4 of 6")
        child.send(DOWN * 2 + SPACE + ENTER)  # type my own answer
        expect_plain(child, "Your own answer")
        child.send("Valkey" + ENTER)
        expect_plain(child, "[Region] 5 of 6")
        expect_plain(child, "type to filter")
        child.send("region3")
        expect_plain(child, "29 of 40 options hidden")
        child.send("7")  # digits join the filter once it is typed: only Region 37 is left
        expect_plain(child, "39 of 40 options hidden")
        child.send(ENTER)
        expect_plain(child, "[Layout] 6 of 6")
        expect_plain(child, "Preview · Dashboard")
        expect_plain(child, "chart │ wide")
        child.send(DOWN)  # the preview follows the pointer (the screen redraws what changed)
        expect_plain(child, "theme: dark")
        child.send(SPACE + ENTER)
        expect_plain(child, "6. Layout: Selected: Settings.")
        child.send(ENTER)

    questions = (DATABASE, FEATURES, NAME, CACHE, REGION, LAYOUT)
    response = await answered(where, tmp_path, batch(*questions), person)
    got = answers(response)
    assert response["action_status"] == "selected"
    assert [answer["id"] for answer in response["answers"]] == [q["id"] for q in questions]
    assert got["db"]["selected_ids"] == ["postgresql"]
    assert got["features"]["selected_ids"] == ["login"]
    assert got["name"] == got["name"] | {"custom_input": "orders", "placeholder_used": True}
    assert got["cache"]["custom_input"] == "Valkey"
    assert got["region"]["selected_ids"] == ["r37"]
    assert got["layout"]["selected_ids"] == ["settings"]


@pytest.mark.parametrize("where", WHERE)
async def test_in_chinese_the_questions_and_the_review_are_chinese_and_the_answer_is_not(
    where: str, tmp_path: Path
) -> None:
    save_settings(InteractionSettings(language="zh-CN"), tmp_path / "settings.json")

    def person(child: pexpect.spawn) -> None:
        expect_plain(child, "1-3 选择并发送")
        child.send("2")
        expect_plain(child, "[Features] 第 2 个，共 2 个")
        expect_plain(child, "Shift-Tab 上一题")
        child.send("1" + "3" + ENTER)
        expect_plain(child, "发送这些回答吗？")
        expect_plain(child, "1. Database：已选择：SQLite。")
        expect_plain(child, "2. Features：已选择：Login和Export。")
        expect_plain(child, "在回答上按 Enter 可修改")
        child.send(ENTER)

    start = ("使用这些设置继续", "[Database] 第 1 个，共 {count} 个")
    response = await answered(where, tmp_path, batch(DATABASE, FEATURES), person, start)
    assert response["selection"]["summary"] == (
        "Answered 2 questions. Database: Selected: SQLite. Features: Selected: Login, Export."
    )


@pytest.mark.parametrize("where", WHERE)
async def test_a_batch_of_one_sends_on_its_pick_without_a_review(
    where: str, tmp_path: Path
) -> None:
    def person(child: pexpect.spawn) -> None:
        child.send("3")

    response = await answered(where, tmp_path, batch(DATABASE), person)
    assert response["action_status"] == "selected"
    assert response["selection"]["summary"] == "Answered 1 question. Database: Selected: DuckDB."


async def test_a_long_preview_is_cut_to_the_window_and_says_what_it_left_out(
    tmp_path: Path,
) -> None:
    long = "```\n" + "\n".join(f"line {number}" for number in range(60)) + "\n```"
    question = DATABASE | {"options": options("PostgreSQL", "SQLite", PostgreSQL=long)}
    terminal = spawn_server_terminal(tmp_path, dimensions=(24, 100))

    def person(child: pexpect.spawn) -> None:
        continue_with_settings(child)
        expect_plain(child, "Preview · PostgreSQL")
        shown = expect_plain(child, "more lines (a taller window shows them)")
        assert "line 0" in shown
        assert "line 59" not in shown
        expect_plain(child, "left · Ctrl-C cancels")  # the time left stays on screen
        child.send(ENTER)

    try:
        response = await asked_in_terminal(terminal, batch(question), person)
    finally:
        terminal[0].terminate(force=True)
    assert answers(response)["db"]["selected_ids"] == ["postgresql"]


async def test_a_cancel_half_way_keeps_what_was_answered(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    def person(child: pexpect.spawn) -> None:
        continue_with_settings(child)
        expect_plain(child, "1 of 3")
        child.send("2")
        expect_plain(child, "2 of 3")
        child.send(CTRL_C)
        expect_plain(child, "Cancelled by the person after 1 of 3 questions.")

    response = await asked_in_terminal(terminal, batch(DATABASE, FEATURES, NAME), person)
    assert response["action_status"] == "cancelled"
    assert answers(response)["db"]["selected_ids"] == ["sqlite"]
    assert answers(response)["features"]["selected_ids"] == []
    assert response["selection"]["summary"].startswith(
        "Cancelled by the person after 1 of 3 questions. Database: Selected: SQLite."
    )


async def test_the_deadline_half_way_keeps_what_was_answered(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    def person(child: pexpect.spawn) -> None:
        continue_with_settings(child)
        expect_plain(child, "1 of 3")
        child.send("2")
        expect_plain(child, "[Features] 2 of 3")
        forward(120)  # then nobody answers until the deadline
        expect_plain(child, "The deadline passed after 1 of 3 questions.")

    request = batch(DATABASE, FEATURES, NAME, timeout_seconds=120)
    response = await asked_in_terminal(terminal, request, person)
    assert response["action_status"] == "timeout"
    assert answers(response)["db"]["selected_ids"] == ["sqlite"]
    assert "Features: Not answered" in response["selection"]["summary"]


def opening(child: pexpect.spawn, request: dict[str, Any], start: tuple[str, str]) -> None:
    """Keep the settings, and see the first question."""
    keep, first = start
    continue_with_settings(child, keep)
    expect_plain(child, first.format(count=len(request["questions"])))


async def handed_off(
    tmp_path: Path,
    person: Any,
    request: dict[str, Any] | None = None,
    start: tuple[str, str] = ENGLISH_START,
) -> tuple[int, str, dict[str, Any]]:
    """Ask `request` (the three questions) over stdio, run the command the response gives in a
    pty while `person(child)` types from the first question on, then poll: the command's exit
    status and screen, and the response."""
    request = request or batch(DATABASE, FEATURES, NAME)
    async with connected("stdio", tmp_path) as client:
        selection = await launch(client, request)
        child = run_summary(selection, tmp_path)
        try:
            opening(child, request, start)
            person(child)
            status, shown = await anyio.to_thread.run_sync(finish, child)
        finally:
            child.close(force=True)
        return status, shown, await poll(client, selection["session_id"])


async def test_a_batch_handed_off_to_a_terminal_comes_back_to_the_poll(tmp_path: Path) -> None:
    def person(child: pexpect.spawn) -> None:
        child.send("1")
        expect_plain(child, "2 of 3")
        child.send("2" + ENTER)
        expect_plain(child, "3 of 3")
        child.send("billing" + ENTER)
        expect_plain(child, "Send these answers")
        child.send(ENTER)

    status, shown, response = await handed_off(tmp_path, person)
    assert status == 0, shown
    assert "Answered 3 questions." in shown
    assert response["action_status"] == "selected"
    assert response["selection"]["transport"] == "terminal_handoff"
    selected = [answer["selected_ids"] for answer in response["answers"]]
    assert selected == [["postgresql"], ["search"], []]
    assert answers(response)["name"]["custom_input"] == "billing"


async def test_a_handed_off_batch_cancelled_half_way_keeps_the_answers_posted(
    tmp_path: Path,
) -> None:
    def person(child: pexpect.spawn) -> None:
        child.send("3")
        expect_plain(child, "2 of 3")
        child.send("1" + ENTER)
        expect_plain(child, "3 of 3")
        child.send(CTRL_C)

    status, shown, response = await handed_off(tmp_path, person)
    assert status == 0, shown
    assert response["action_status"] == "cancelled"
    selected = [answer["selected_ids"] for answer in response["answers"]]
    assert selected == [["duckdb"], ["login"], []]
    assert response["selection"]["summary"].startswith(
        "Cancelled by the person after 2 of 3 questions."
    )


async def test_a_batch_past_max_wait_returns_pending_and_the_poll_gets_its_answers(
    tmp_path: Path,
) -> None:
    child, url = spawn_server_terminal(tmp_path, "--max-wait", "2")
    try:
        async with Client(url) as client:
            pending = await call(client, batch(DATABASE, NAME))
            assert pending["action_status"] == "pending"
            assert [answer["selected_ids"] for answer in pending["answers"]] == [[], []]
            session_id = pending["selection"]["session_id"]
            polled: list[dict[str, Any]] = []

            async def poll_it() -> None:  # each poll waits 2 s at most
                polled.append(await poll_until_ended(client, session_id))

            def person(child: pexpect.spawn) -> None:
                continue_with_settings(child)  # the settings screen was there all along
                expect_plain(child, "[Database] 1 of 2")
                child.send("2")
                expect_plain(child, "2 of 2")
                child.send(ENTER)
                expect_plain(child, "Send these answers")
                child.send(ENTER)

            async with anyio.create_task_group() as group:
                group.start_soon(poll_it)
                await anyio.to_thread.run_sync(person, child)
    finally:
        child.terminate(force=True)
    (response,) = polled
    assert response["action_status"] == "selected"
    assert answers(response)["db"]["selected_ids"] == ["sqlite"]
    assert answers(response)["name"] == answers(response)["name"] | {
        "custom_input": "orders",
        "placeholder_used": True,
    }
