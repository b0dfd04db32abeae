"""The terminal hand-off end to end: `provide-choice serve` over stdio, spawned by the MCP SDK's own
client as an agent's client would; the `summary` command it returns run in a real pseudo-terminal,
from another directory, exactly as given; the answer fetched with a second call.

The tests that only ask share one server (its settings home is never written); a test that changes
the settings, or stops the server, starts one of its own."""

from __future__ import annotations

import json
import logging
import signal
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pexpect
import pytest
import pytest_asyncio
from attended import attended_environment
from mcp import Client, StdioServerParameters
from mcp_servers import held, launch, poll, poll_until_ended, text_of
from provide_choice_harness import (
    COMMAND,
    CTRL_C,
    DOWN,
    ENTER,
    SPACE,
    continue_with_settings,
    expect_plain,
    finish,
    plain,
    run_summary,
    spawn,
)
from question_clock import forward

pytestmark = pytest.mark.asyncio(loop_scope="session")  # the shared server's loop

OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "description": "robust", "recommended": True},
    {"id": "lite", "label": "SQLite"},
    {"id": "duck", "label": "DuckDB"},
]


def question(mode: str, **changes: Any) -> dict[str, Any]:
    return {
        "title": "Database",
        "prompt": "The app needs storage and none is configured.",
        "selection_mode": mode,
        "options": OPTIONS,
        "transport": "terminal",
    } | changes


@pytest.fixture(autouse=True)
def stdout_carries_only_the_protocol(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The SDK's stdio client logs every line on the server's stdout that is not JSON-RPC: the
    bridge and the hand-off must never write there."""
    with caplog.at_level(logging.WARNING, logger="mcp.client.stdio"):
        yield
    assert not [record for record in caplog.records if record.name == "mcp.client.stdio"]


@asynccontextmanager
async def stdio_server(home: Path) -> AsyncIterator[Client]:
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve"], env=attended_environment(home)
    )
    async with Client(parameters) as client:
        yield client


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """The agent's client of the server the tests that only ask share."""
    async with held(stdio_server(tmp_path_factory.mktemp("handoff"))) as client:
        yield client


async def provoke_bridge_log(url: str) -> None:
    """Send the bridge a request that is not HTTP: its server logs a warning about it, which must
    go to stderr (the autouse check above sees anything that reaches stdout)."""
    host, port = url.split("/")[2].split(":")
    async with await anyio.connect_tcp(host, int(port)) as stream:
        await stream.send(b"NOT HTTP AT ALL\r\n\r\n")
        with anyio.move_on_after(2):
            await stream.receive()


async def in_thread(function: Any, *arguments: Any) -> Any:
    return await anyio.to_thread.run_sync(function, *arguments)


async def test_single_choice_answered_in_the_opened_terminal(
    client: Client, tmp_path: Path
) -> None:
    selection = await launch(client, question("single"))
    await provoke_bridge_log(selection["url"])
    child = run_summary(selection, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "The app needs storage and none is configured.")
    expect_plain(child, "left · Ctrl-C cancels")
    child.send(DOWN + ENTER)
    expect_plain(child, "Selected: SQLite.")
    status, rest = finish(child)
    response = await poll(client, selection["session_id"])
    assert status == 0
    assert rest.strip() == "", "the summary is the last thing shown"
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert response["selection"]["transport"] == "terminal_handoff"
    assert response["selection"]["summary"] == "Selected: SQLite."


async def test_regression_a_plugin_preferred_in_the_settings_does_not_stop_the_terminal(
    tmp_path: Path,
) -> None:
    # The hand-off's terminal read the question's settings before any plug-in was loaded there:
    # a person preferring Telegram got "a session this choice-terminal cannot read".
    (tmp_path / "settings.json").write_text(json.dumps({"transport": "telegram"}))
    async with stdio_server(tmp_path) as client:
        selection = await launch(client, question("single"))
        child = run_summary(selection, tmp_path)
        continue_with_settings(child)
        expect_plain(child, "The app needs storage and none is configured.")
        child.send(ENTER)
        expect_plain(child, "Selected: PostgreSQL.")
        status, _rest = finish(child)
        response = await poll(client, selection["session_id"])
    assert status == 0
    assert response["selection"]["selected_ids"] == ["pg"]


async def test_multi_with_notes(client: Client, tmp_path: Path) -> None:
    selection = await launch(client, question("multi", max_selections=2))
    child = run_summary(selection, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose 1 to 2 options")
    child.send(SPACE + "n")
    expect_plain(child, "Note on PostgreSQL")
    child.send("only with backups" + ENTER)
    expect_plain(child, "✎ only with backups")
    child.send(DOWN + DOWN + SPACE + "g")
    expect_plain(child, "Overall note")
    child.send("decide by Friday" + ENTER)
    expect_plain(child, "✎ Overall note: decide by Friday")
    child.send(ENTER)
    expect_plain(child, "Selected: PostgreSQL and DuckDB. With notes.")
    status, _ = finish(child)
    response = await poll(client, selection["session_id"])
    assert status == 0
    assert response["selection"]["selected_ids"] == ["pg", "duck"]
    assert response["selection"]["option_annotations"] == {"pg": "only with backups"}
    assert response["selection"]["global_annotation"] == "decide by Friday"


async def test_hybrid_with_own_text(client: Client, tmp_path: Path) -> None:
    selection = await launch(client, question("hybrid"))
    child = run_summary(selection, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose up to 1 option, or type your own answer")
    child.send(DOWN * 3 + SPACE + ENTER)
    expect_plain(child, "Your own answer")
    child.send("Redis" + ENTER)
    expect_plain(child, 'Your own answer: "Redis".')
    status, _ = finish(child)
    response = await poll(client, selection["session_id"])
    assert status == 0
    assert response["action_status"] == "custom_input"
    assert response["selection"]["custom_input"] == "Redis"
    assert response["selection"]["selected_ids"] == []


async def test_cancel_in_the_client_and_every_later_use_is_refused(
    client: Client, tmp_path: Path
) -> None:
    selection = await launch(client, question("single"))
    await launch(client, question("single"))  # a pending session keeps the bridge up
    child = run_summary(selection, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    second = run_summary(selection, tmp_path)  # the agent runs the command twice
    second_status, second_line = finish(second)
    child.send(CTRL_C)
    expect_plain(child, "Cancelled by the person; nothing selected.")
    status, _ = finish(child)
    after_answer_status, after_answer_line = finish(run_summary(selection, tmp_path))
    response = await poll(client, selection["session_id"])
    after_poll_status, after_poll_line = finish(run_summary(selection, tmp_path))
    again = await client.call_tool("provide_choice", {"session_id": selection["session_id"]})
    assert status == 0
    assert response["action_status"] == "cancelled"
    for refused_status, line, reason in (
        (second_status, second_line, "already open in another terminal"),
        (after_answer_status, after_answer_line, "already answered or cancelled"),
        (after_poll_status, after_poll_line, "does not exist (any more)"),
    ):
        assert refused_status != 0
        assert line.strip().startswith("choice-terminal: ")
        assert reason in line
        assert "Traceback" not in line
        assert len(line.strip().splitlines()) == 1
    assert again.is_error
    assert "Call provide_choice again without session_id" in text_of(again)


async def test_settings_changed_in_the_client_are_saved_by_the_server_and_rule_the_timeout(
    tmp_path: Path,
) -> None:
    async with stdio_server(tmp_path) as client:
        request = question("single", timeout_seconds=120, default_selection_ids=["pg"])
        selection = await launch(client, request)
        child = run_summary(selection, tmp_path)
        expect_plain(child, "Change settings")
        child.send(DOWN + ENTER)
        expect_plain(child, "When time runs out: Return the question's defaults")
        child.send(DOWN * 6 + ENTER)  # its values, the current one marked
        expect_plain(child, "Return the question's defaults (now)")
        child.send(DOWN + ENTER)
        expect_plain(child, "When time runs out: Return nothing")
        # The person walks away: the deadline passes on the settings screen (on the tests' clock,
        # which the server and the terminal both follow).
        forward(120)
        expect_plain(child, "No answer before the deadline; nothing selected.")
        status, _ = finish(child)
        response = await poll(client, selection["session_id"])
    assert status == 0
    assert response["action_status"] == "timeout"
    assert response["selection"]["selected_ids"] == []
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["timeout_action"] == "return_nothing"
    assert not (tmp_path / "elsewhere" / "settings.json").exists()


async def test_timeout_without_attach(client: Client, tmp_path: Path) -> None:
    # The 2 s run from the question's start, inside the launch: a launch slowed by a busy
    # machine (the cold bridge imports its web server) leaves less of them for the poll.
    asked = time.monotonic()
    selection = await launch(
        client, question("single", timeout_seconds=2, default_selection_ids=["pg"])
    )
    launched = time.monotonic()
    response = await poll(client, selection["session_id"])
    ended = time.monotonic()
    assert ended - asked > 1.9
    assert ended - launched < 4
    assert response["action_status"] == "timeout"
    assert response["selection"]["selected_ids"] == ["pg"]


async def test_a_client_started_after_the_deadline_is_told_the_question_expired(
    client: Client, tmp_path: Path
) -> None:
    selection = await launch(client, question("single", timeout_seconds=1))
    await launch(client, question("single"))  # a pending session keeps the bridge up
    await anyio.sleep(1.3)
    status, line = finish(run_summary(selection, tmp_path))
    response = await poll(client, selection["session_id"])
    assert status != 0
    assert line.strip() == (
        "choice-terminal: this question expired: its deadline passed before it was answered; "
        "ask the agent to call provide_choice again (each session can be used once)"
    )
    assert response["action_status"] == "timeout"


async def test_a_client_killed_mid_answer_leaves_the_session_to_time_out(
    client: Client, tmp_path: Path
) -> None:
    selection = await launch(client, question("multi", timeout_seconds=120))
    child = run_summary(selection, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose 1 to 3 options")
    child.send(SPACE)
    child.kill(signal.SIGKILL)
    child.close()
    retry_status, retry_line = finish(run_summary(selection, tmp_path))
    forward(120)  # then nobody answers until the deadline
    response = await poll(client, selection["session_id"])
    assert child.signalstatus == signal.SIGKILL
    assert retry_status != 0
    assert "already open in another terminal" in retry_line
    assert response["action_status"] == "timeout"
    assert response["selection"]["selected_ids"] == []


async def test_a_server_gone_or_no_terminal_is_one_line_that_says_what_to_do(
    tmp_path: Path,
) -> None:
    async with stdio_server(tmp_path) as client:
        selection = await launch(client, question("single"))
    # The client closed the server; the bridge went with it.
    status, line = finish(run_summary(selection, tmp_path))
    assert status != 0
    assert line.strip() == (
        "choice-terminal: nothing answers at this address any more: the question has ended "
        "(answered or timed out) or the agent's provide-choice server stopped; "
        "ask the agent to call provide_choice again"
    )
    piped = await anyio.run_process(
        ["/bin/sh", "-c", selection["summary"] + " < /dev/null"], check=False
    )
    assert piped.returncode != 0
    assert piped.stdout == b""
    assert piped.stderr.decode().startswith("choice-terminal: needs an interactive terminal")
    assert len(piped.stderr.decode().strip().splitlines()) == 1


SESSIONS = 50
WAVE = 10
"""How many of the clients start at once: fifty starting together leave a test beside this one a
fiftieth of the machine each, long enough to miss its own time limits."""


async def test_50_concurrent_sessions_each_answered_by_its_own_client(
    client: Client, tmp_path: Path
) -> None:
    """Every session its own question (its own option ids) and its own choice-terminal process;
    all 50 polls wait at once, all 50 clients show their question at once, and each session gets
    the answer given in its own client."""

    def numbered(index: int) -> dict[str, Any]:
        options = [
            {"id": f"first-{index}", "label": f"First {index}", "recommended": True},
            {"id": f"second-{index}", "label": f"Second {index}"},
        ]
        return question("single", title=f"Question {index}", options=options, timeout_seconds=120)

    def chosen(index: int) -> str:
        return f"second-{index}" if index % 3 else f"first-{index}"

    def answer_all(selections: list[dict[str, Any]]) -> list[int]:
        children: list[pexpect.spawn] = []
        for first in range(0, SESSIONS, WAVE):
            wave = [
                run_summary(selection, tmp_path, timeout=60)
                for selection in selections[first : first + WAVE]
            ]
            for child in wave:
                child.delaybeforesend = None  # every send follows its prompt: no need to pause
                continue_with_settings(child)
            for index, child in enumerate(wave, start=first):
                expect_plain(child, f"Question {index}")
                expect_plain(child, "Choose one")
            children += wave
        for index, child in enumerate(children):  # every client waits on its question
            child.send((DOWN if index % 3 else "") + ENTER)
        return [finish(child)[0] for child in children]

    selections = [await launch(client, numbered(index)) for index in range(SESSIONS)]
    responses: dict[int, dict[str, Any]] = {}

    async def poll_one(index: int) -> None:
        # Fifty terminals starting at once on a busy machine can outlast one --max-wait.
        responses[index] = await poll_until_ended(client, selections[index]["session_id"])

    async with anyio.create_task_group() as group:
        for index in range(SESSIONS):
            group.start_soon(poll_one, index)
        statuses = await in_thread(answer_all, selections)
    assert statuses == [0] * SESSIONS
    assert len({selection["session_id"] for selection in selections}) == SESSIONS
    assert {selection["url"].rsplit("/", 2)[0] for selection in selections} == {
        selections[0]["url"].rsplit("/", 2)[0]
    }, "one bridge serves every session"
    for index in range(SESSIONS):
        assert responses[index]["selection"]["selected_ids"] == [chosen(index)], index


async def test_serve_http_with_handoff_hands_off_even_in_a_terminal_window(tmp_path: Path) -> None:
    window = spawn([COMMAND, "serve", "--http", "0", "--handoff", "--no-auth"], tmp_path)
    try:
        window.expect(r"MCP server at (http://127\.0\.0\.1:\d+/mcp); (.*)\.")
        url, where = window.match.group(1), window.match.group(2)
        async with Client(url) as client:
            selection = await launch(client, question("single"))
            child = run_summary(selection, tmp_path)
            continue_with_settings(child)
            expect_plain(child, "Choose one")
            child.send(ENTER)
            status, _ = finish(child)
            response = await poll(client, selection["session_id"])
        window.expect(pexpect.TIMEOUT, timeout=0.3)
        shown_in_window = plain(window.before)
    finally:
        window.terminate(force=True)
    assert "handed off to one the agent opens (--handoff)" in where
    assert status == 0
    assert response["selection"]["selected_ids"] == ["pg"]
    assert response["selection"]["transport"] == "terminal_handoff"
    assert "Continue with these settings" not in shown_in_window
