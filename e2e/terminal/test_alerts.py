"""The terminal's own alert, in real pseudo-terminals: `provide-choice ask` in each terminal family
(and inside tmux) writes the notification that family reads, on the terminal and never on stdout;
the hand-off's `choice-terminal` and the server's own terminal do the same; the settings switch it
off or delay it until the question has waited untouched.

Each child gets an environment cleaned of what says which terminal this is, then the variables of
the terminal it stands for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pexpect
from alert_environment import environment
from mcp import Client, StdioServerParameters
from mcp_servers import TOKEN, http_client, launch, poll
from prompts import DATABASE_REQUEST
from provide_choice_harness import (
    COMMAND,
    CTRL_C,
    DOWN,
    ENTER,
    UP,
    expect_plain,
    finish,
)

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
FAMILIES: list[tuple[dict[str, str], str]] = [
    # One terminal of each family (tests/provide_choice/test_alerts.py has them all).
    ({"TERM_PROGRAM": "iTerm.app"}, f"{ESC}]9;Database{BEL}"),
    ({"VTE_VERSION": "7600"}, f"{ESC}]777;notify;provide-choice;Database{BEL}"),
    ({"TERM": "foot"}, f"{ESC}]777;notify;provide-choice;Database{BEL}"),
    ({"KITTY_WINDOW_ID": "1"}, f"{ESC}]99;;Database{ST}"),
    ({}, BEL),
    (
        {"TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux", "LC_TERMINAL": "iTerm2"},
        f"{ESC}Ptmux;{ESC}{ESC}]9;Database{BEL}{ST}",
    ),
    (
        {"TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "tmux", "KITTY_WINDOW_ID": "3"},
        f"{ESC}Ptmux;{ESC}{ESC}]99;;Database{ESC}{ESC}\\{ST}",
    ),
]


def spawn_ask(home: Path, variables: dict[str, str], **changes: Any) -> tuple[pexpect.spawn, Path]:
    """`provide-choice ask request.json > answer.json` in a terminal of the given family."""
    home.mkdir(parents=True, exist_ok=True)
    request = home / "request.json"
    request.write_text(json.dumps(DATABASE_REQUEST | changes))
    answer = home / "answer.json"
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", 'exec "$0" ask "$1" > "$2"', COMMAND, str(request), str(answer)],
        env=environment(home, **variables),
        encoding="utf-8",
        dimensions=(40, 160),
        timeout=20,
    )
    return child, answer


def cancelled(child: pexpect.spawn, answer: Path) -> str:
    """Cancel the question (Ctrl-C): what stdout carried, which must be the response alone."""
    child.send(CTRL_C)
    status, _rest = finish(child)
    assert status == 1
    printed = answer.read_text()
    assert json.loads(printed)["action_status"] == "cancelled"
    return printed


def settings(home: Path, **values: Any) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps(values))


def test_ask_alerts_each_terminal_family_in_its_own_sequence_on_the_terminal_only(
    tmp_path: Path,
) -> None:
    children = [
        (variables, written, *spawn_ask(tmp_path / str(index), variables))
        for index, (variables, written) in enumerate(FAMILIES)
    ]
    for variables, written, child, answer in children:
        expect_plain(child, "Continue with these settings")
        child.expect_exact(written)
        stdout = cancelled(child, answer)
        assert ESC not in stdout, f"an alert reached stdout in {variables}"
        assert BEL not in stdout, f"an alert reached stdout in {variables}"


def test_an_escape_in_the_title_never_reaches_the_terminal_as_one(tmp_path: Path) -> None:
    child, answer = spawn_ask(
        tmp_path, {"TERM_PROGRAM": "WezTerm"}, title=f"Data{ESC}]0;pwned{BEL}base{ESC}[2J"
    )
    child.expect_exact(f"{ESC}]9;")
    child.expect_exact(BEL)
    assert child.before == "Data]0;pwnedbase[2J"
    cancelled(child, answer)


def test_switched_off_the_terminal_is_not_alerted(tmp_path: Path) -> None:
    settings(tmp_path, alerts={"terminal": False})
    child, answer = spawn_ask(tmp_path, {"TERM_PROGRAM": "iTerm.app"})
    expect_plain(child, "Continue with these settings")
    child.send(DOWN)
    shown = expect_plain(child, "» Change settings")
    assert f"{ESC}]9;" not in shown
    assert BEL not in shown
    cancelled(child, answer)


def test_alert_after_seconds_waits_and_a_key_pressed_meanwhile_means_no_alert(
    tmp_path: Path,
) -> None:
    for name in ("waiting", "busy"):
        settings(tmp_path / name, alert_after_seconds=2)
    waiting, waiting_answer = spawn_ask(tmp_path / "waiting", {"VTE_VERSION": "7600"})
    expect_plain(waiting, "Continue with these settings")
    alert = f"{ESC}]777;notify;provide-choice;Database{BEL}"
    expect_nothing(waiting, alert, seconds=1)
    waiting.expect_exact(alert, timeout=3)
    cancelled(waiting, waiting_answer)

    busy, busy_answer = spawn_ask(tmp_path / "busy", {"VTE_VERSION": "7600"})
    expect_plain(busy, "Continue with these settings")
    busy.send(DOWN)  # the person is at it
    expect_nothing(busy, alert, seconds=2.5)
    cancelled(busy, busy_answer)


def expect_nothing(child: pexpect.spawn, text: str, seconds: float) -> None:
    try:
        child.expect_exact(text, timeout=seconds)
    except pexpect.TIMEOUT:
        return
    raise AssertionError(f"{text!r} came within {seconds} s")


async def test_the_hand_off_terminal_and_the_server_terminal_alert_too(tmp_path: Path) -> None:
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve"], env=environment(tmp_path / "server")
    )
    async with Client(parameters) as client:
        selection = await launch(client, DATABASE_REQUEST | {"transport": "terminal"})
        handoff = pexpect.spawn(
            "/bin/sh",
            ["-c", selection["summary"]],
            env=environment(tmp_path / "agent", VTE_VERSION="7600"),
            encoding="utf-8",
            dimensions=(40, 160),
            timeout=20,
        )
        expect_plain(handoff, "Continue with these settings")
        handoff.expect_exact(f"{ESC}]777;notify;provide-choice;Database{BEL}")
        handoff.send(ENTER)
        expect_plain(handoff, "PostgreSQL")
        handoff.send(ENTER)
        finish(handoff)
        response = await poll(client, selection["session_id"])
    assert response["selection"]["selected_ids"] == ["pg"]

    server = pexpect.spawn(
        COMMAND,
        ["serve", "--http", "0"],
        env=environment(tmp_path / "window", KITTY_WINDOW_ID="7", PROVIDE_CHOICE_TOKEN=TOKEN),
        encoding="utf-8",
        dimensions=(40, 160),
        timeout=20,
    )
    server.expect(r"MCP server at (http://127\.0\.0\.1:\d+/mcp)")
    url = server.match.group(1)
    async with http_client(url) as client, anyio.create_task_group() as group:
        results: list[Any] = []

        async def ask() -> None:
            results.append(await client.call_tool("provide_choice", DATABASE_REQUEST))

        group.start_soon(ask)
        await anyio.to_thread.run_sync(expect_plain, server, "Continue with these settings")
        await anyio.to_thread.run_sync(server.expect_exact, f"{ESC}]99;;Database{ST}")
        server.send(ENTER)
        await anyio.to_thread.run_sync(expect_plain, server, "PostgreSQL")
        server.send(ENTER)
    assert results[0].structured_content["selection"]["selected_ids"] == ["pg"]
    server.sendintr()
    server.expect(pexpect.EOF)


def test_the_terminal_settings_screen_switches_the_alerts_and_saves_them(tmp_path: Path) -> None:
    child, answer = spawn_ask(tmp_path, {})
    expect_plain(child, "Change settings")
    child.send(DOWN + ENTER)
    expect_plain(child, "Push alerts say: The question, its options and where to answer")
    expect_plain(child, "Alert once a question waited untouched (seconds): 0")
    for channel in ("in the terminal", "on the desktop", "in the browser", "by push"):
        expect_plain(child, f"Tell me a question waits {channel}")
    expect_plain(child, "to the addresses in notify_urls: On")
    # An installed transport that follows every question is a channel too, with its label.
    expect_plain(child, "Tell me a question waits in Slack (the configured channel, where it")
    expect_plain(child, "Tell me a question waits in Telegram (the linked chat, where it can")
    # past the last entries (hidden options, away, language, slack, telegram)
    child.send(UP * 6 + ENTER)
    expect_plain(child, "On (now)")
    child.send(DOWN + ENTER)
    expect_plain(child, "to the addresses in notify_urls: Off")
    child.send(UP * 4 + ENTER)  # alert_after_seconds
    expect_plain(child, "Alert once a question waited untouched (seconds)")
    child.send("\b45" + ENTER)
    expect_plain(child, "Alert once a question waited untouched (seconds): 45")
    child.send(UP * 2 + ENTER)  # notify_detail
    expect_plain(child, "The question, its options and where to answer (now)")
    child.send(DOWN + ENTER)
    expect_plain(child, "Push alerts say: The title only")
    cancelled(child, answer)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["alerts"] == {"terminal": True, "desktop": True, "browser": True, "push": False}
    assert (saved["alert_after_seconds"], saved["notify_detail"]) == (45, "title_only")
