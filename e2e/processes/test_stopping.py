"""Stopping is quiet: Ctrl-C (SIGINT) or SIGTERM ends each long-running command with one line on
stderr, exit status 0 and no traceback, and what it leaves behind it removes. Every command runs in
a process of its own, as a person runs it; `make demo` and `choice-terminal` in a terminal."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import termios
from collections.abc import AsyncIterator, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import anyio
import pexpect
import pytest
import pytest_asyncio
from long_running import CHAT, INBOX, SERVER, LongRunning, environment, wait_for
from mcp import Client, StdioServerParameters
from mcp_servers import held, launch, poll
from provide_choice_harness import (
    COMMAND,
    continue_with_settings,
    expect_plain,
    finish,
    run_summary,
    spawn_server_terminal,
)

ROOT = Path(__file__).resolve().parents[2]
SIGNALS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}


COMMANDS = {"chat": CHAT, "serve-http": SERVER, "inbox": INBOX}


@pytest.fixture(scope="module")
def running(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[tuple[str, int], tuple[subprocess.Popen[str], Path]]]:
    """One process per command and signal, each with a data directory of its own, all started at
    once (they start in the time of the slowest) and serving: the process and its directory."""
    launched = {}
    for name, command in COMMANDS.items():
        for number in SIGNALS:
            home = tmp_path_factory.mktemp(f"{name}-{number}")
            launched[name, number] = (command.launch(home), home)
    try:
        for (name, _number), (process, _home) in launched.items():
            COMMANDS[name].ready_line(process)
        yield launched
    finally:
        for process, _home in launched.values():
            if process.poll() is None:
                process.kill()
                process.communicate()


@pytest.mark.parametrize("number", list(SIGNALS), ids=list(SIGNALS.values()))
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_stop_signal_ends_the_command_with_one_line_and_status_0(
    running: dict[tuple[str, int], tuple[subprocess.Popen[str], Path]], name: str, number: int
) -> None:
    # The chat printed a 25-line KeyboardInterrupt traceback on Ctrl-C; the chat, the server and
    # the inbox died of SIGTERM (status -15) without a word, the inbox leaving its files behind.
    process, home = running[name, number]
    process.send_signal(number)
    output, errors = process.communicate(timeout=30)
    assert (process.returncode, output) == (0, "")
    assert errors == f"{COMMANDS[name].prefix}: stopped ({SIGNALS[number]})\n"
    assert not list(home.glob("inbox*")), "the inbox's record and opener leave with it"


def test_an_inbox_killed_leaves_its_record_and_the_next_one_replaces_it(tmp_path: Path) -> None:
    first, _printed = INBOX.start(tmp_path)
    killed = json.loads((tmp_path / "inbox.json").read_text())
    opener = tmp_path / "inbox-open.html"
    wait_for(opener.exists, "the inbox opens the browser through its opener page")
    first.kill()  # SIGKILL: no chance to clean up
    first.communicate(timeout=30)
    assert opener.exists()

    second, printed = INBOX.start(tmp_path)
    assert "already runs" not in printed, "a record naming a process that is gone is no inbox"
    record = json.loads((tmp_path / "inbox.json").read_text())
    assert record["pid"] == second.pid
    assert record["token"] != killed["token"]
    # The old opener went before the address was printed; a new one may be written since.
    assert not opener.exists() or killed["token"] not in opener.read_text()
    second.send_signal(signal.SIGTERM)
    assert second.communicate(timeout=30)[1] == "provide-choice inbox: stopped (SIGTERM)\n"
    assert not list(tmp_path.glob("inbox*"))


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_regression_make_demo_then_ctrl_c_says_one_line(tmp_path: Path) -> None:
    # It printed a KeyboardInterrupt and CancelledError traceback, then make's
    # "make: *** [Makefile:39: demo] Interrupt". The Makefile's own recipe, in a terminal: only the
    # install step is left out (BASE_STAMP=), and the commands come from this environment (BIN=).
    child = pexpect.spawn(
        "make",
        ["-s", "-C", str(ROOT), "demo", "PORT=0", "BASE_STAMP=", f"BIN={Path(COMMAND).parent}"],
        env=environment(tmp_path),
        encoding="utf-8",
        timeout=30,
    )
    child.expect(r"choices-chat: the chat is at \S+ \(Ctrl-C stops it\)\r\n")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.before.replace("^C", "").strip() == "choices-chat: stopped (Ctrl-C)"


def question(title: str) -> dict[str, Any]:
    return {
        "title": title,
        "prompt": "The app needs storage and none is configured.",
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True},
            {"id": "lite", "label": "SQLite"},
        ],
        "transport": "terminal",
    }


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def agent(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """An agent's client of `provide-choice serve` over stdio, for every hand-off here."""
    home = tmp_path_factory.mktemp("handoff")
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve", "--no-browser"], env=environment(home)
    )
    async with held(Client(parameters)) as client:
        yield client


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("number", list(SIGNALS), ids=list(SIGNALS.values()))
async def test_a_stop_signal_to_choice_terminal_cancels_its_question(
    agent: Client, number: int, tmp_path: Path
) -> None:
    # SIGTERM killed it (status -15) with the terminal in raw mode, and the agent waited for the
    # question until its deadline; SIGINT from outside did nothing at all.
    selection = await launch(agent, question("Stopped from outside"))
    # `exec`: the signal goes to choice-terminal itself, not to a shell waiting for it.
    child = run_summary({"summary": f"exec {selection['summary']}"}, tmp_path)
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    os.kill(child.pid, number)
    status, shown = finish(child)
    response = await poll(agent, selection["session_id"])
    assert status == 0
    assert "Traceback" not in shown
    assert shown.rstrip().endswith("Cancelled by the person; nothing selected.")
    assert response["action_status"] == "cancelled"
    assert response["selection"]["transport"] == "terminal_handoff"


@pytest.mark.asyncio(loop_scope="session")
async def test_sigterm_to_the_server_with_a_question_on_its_terminal_gives_the_terminal_back(
    tmp_path: Path,
) -> None:
    # The server exits at once on a stop signal (an open call waits up to --max-wait for its
    # person): the question's screen had the terminal in raw mode, and it stayed so.
    child, url = spawn_server_terminal(tmp_path)

    async def call() -> None:
        with suppress(Exception):  # the server goes away under the call: not what is tested
            async with Client(url) as client:
                await client.call_tool("provide_choice", question("On the server's screen"))

    calling = asyncio.create_task(call())
    await anyio.to_thread.run_sync(continue_with_settings, child)
    await anyio.to_thread.run_sync(expect_plain, child, "Choose one")
    os.kill(child.pid, signal.SIGTERM)
    await anyio.to_thread.run_sync(expect_plain, child, "provide-choice: stopped (SIGTERM)")
    await anyio.to_thread.run_sync(child.expect, pexpect.EOF)
    local_modes = termios.tcgetattr(child.child_fd)[3]  # the terminal's, as the server left it
    status, shown = finish(child)
    await calling
    assert status == 0
    assert "Traceback" not in shown
    wanted = termios.ICANON | termios.ECHO  # lines and echo, not raw mode
    assert local_modes & wanted == wanted


def test_in_a_chinese_terminal_the_inbox_says_where_it_is_and_that_it_stopped_in_chinese(
    tmp_path: Path,
) -> None:
    chinese = LongRunning(INBOX.arguments, "收件箱在 ", INBOX.prefix)
    process = chinese.launch(tmp_path, {"LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert chinese.ready_line(process).endswith("（按 Ctrl-C 停止）\n")
    process.send_signal(signal.SIGTERM)
    assert process.communicate(timeout=30)[1] == "provide-choice inbox: 已停止（SIGTERM）\n"
