"""`provide-choice` refuses clearly, with exit status 2, whatever keeps it from working."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

VALID = {
    "title": "Database",
    "prompt": "Which database?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


def run_ask(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provide_choice", "ask", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_terminal_it_exits_2_with_one_clear_line() -> None:
    result = run_ask("--json", json.dumps(VALID))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "provide-choice ask: needs a terminal, and stdin is not one. Run it from an interactive "
        "shell (agents: use `provide-choice serve`).\n"
    )


def test_an_invalid_request_lists_every_problem(tmp_path: Path) -> None:
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(VALID | {"selection_mode": "radio", "timeout_seconds": 0}))
    result = run_ask(str(request_file))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "provide-choice ask: invalid request (2 problems):",
        "  - selection_mode must be one of 'single', 'multi', 'text_input' or 'hybrid', got 'radio'",
        "  - timeout_seconds must be at least 1, got 0",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--json", "{title"],
            "provide-choice ask: --json is not valid JSON: Expecting property name",
        ),
        (
            ["/no/such/request.json"],
            "provide-choice ask: cannot read /no/such/request.json: No such file",
        ),
    ],
)
def test_unreadable_requests_say_what_is_wrong(arguments: list[str], message: str) -> None:
    result = run_ask(*arguments)
    assert result.returncode == 2
    assert result.stderr.startswith(message)


def test_a_request_is_required() -> None:
    result = run_ask()
    assert result.returncode == 2
    assert "one of the arguments REQUEST.json --json is required" in result.stderr


def test_serve_on_a_port_in_use_exits_2_saying_so() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "provide_choice", "serve", "--http", str(port)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr.startswith(
        f"provide-choice serve: cannot listen on 127.0.0.1:{port}: Address already in use"
    )


def run_serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provide_choice", "serve", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("port", ["70000", "-5", "http"])
@pytest.mark.parametrize("option", ["--bridge-port", "--http"])
def test_regression_a_port_outside_the_range_exits_2_at_start(option: str, port: str) -> None:
    # --bridge-port 70000 was accepted, and every later call failed with an OverflowError.
    result = run_serve(option, port)
    assert result.returncode == 2
    assert f"argument {option}: must be a port number from 0 (any free port) to 65535" in (
        result.stderr
    )


@pytest.mark.parametrize("seconds", ["-1", "1e9", "soon"])
def test_max_wait_outside_its_range_exits_2_saying_what_is_allowed(seconds: str) -> None:
    result = run_serve("--max-wait", seconds)
    assert result.returncode == 2
    assert (
        "argument --max-wait: must be seconds from 0 (until the question's deadline) to 86400"
        in (result.stderr)
    )


def test_the_max_wait_default_in_the_help_is_the_servers() -> None:
    from provide_choice.__main__ import MAX_WAIT_SECONDS as DOCUMENTED
    from provide_choice._server._provide_choice_tool import MAX_WAIT_SECONDS

    assert DOCUMENTED == MAX_WAIT_SECONDS == 50
