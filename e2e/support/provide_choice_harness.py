"""Driving `provide-choice` in a real pseudo-terminal (pexpect), as a person at a keyboard would."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
from attended import attended_environment

COMMAND = shutil.which("provide-choice", path=str(Path(sys.executable).parent)) or "provide-choice"
ENTER = "\r"
UP = "\x1b[A"
DOWN = "\x1b[B"
SPACE = " "
CTRL_C = "\x03"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def environment(home: Path, language: str = "C.UTF-8") -> dict[str, str]:
    """Fast prompts (no cursor-position requests) and settings in a directory of the test's own;
    the terminal's `LANG` is `language`."""
    return attended_environment(home, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", LANG=language)


def spawn(
    arguments: list[str],
    home: Path,
    timeout: float = 15,
    dimensions: tuple[int, int] = (40, 160),
    language: str = "C.UTF-8",
) -> pexpect.spawn:
    """`arguments` in a pseudo-terminal of `dimensions` (rows, columns) whose `LANG` is
    `language`."""
    return pexpect.spawn(
        arguments[0],
        arguments[1:],
        env=environment(home, language),
        encoding="utf-8",
        dimensions=dimensions,
        timeout=timeout,
    )


def spawn_ask(
    request: dict[str, Any], tmp_path: Path, language: str = "C.UTF-8"
) -> tuple[pexpect.spawn, Path]:
    """`provide-choice ask REQUEST.json > answer.json`: the question is drawn on the terminal
    (stderr), and the file receives exactly what a shell script would read from stdout."""
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(request))
    answer_file = tmp_path / "answer.json"
    script = 'exec "$0" ask "$1" > "$2"'
    arguments = ["/bin/sh", "-c", script, COMMAND, str(request_file), str(answer_file)]
    return spawn(arguments, tmp_path / "home", language=language), answer_file


def answer_of(child: pexpect.spawn, answer_file: Path) -> dict[str, Any]:
    """Wait for the command to end; the whole of stdout must be one JSON document, and the exit
    status must say what it says: 0 answered, 1 ended without an answer (cancelled, timed out)."""
    child.expect(pexpect.EOF)
    child.close()
    answer: dict[str, Any] = json.loads(answer_file.read_text())
    answered = answer["action_status"] in ("selected", "custom_input")
    assert child.exitstatus == (0 if answered else 1), plain(child.before)
    return answer


def history_of(home: Path) -> list[dict[str, Any]]:
    """`provide-choice history --json` with the settings and history in `home`, newest first."""
    printed = subprocess.run(
        [COMMAND, "history", "--json"],
        env=environment(home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [json.loads(line) for line in printed.stdout.splitlines()]


def plain(text: str) -> str:
    """Terminal output without colour and cursor sequences."""
    return ANSI.sub("", text)


def expect_plain(child: pexpect.spawn, text: str) -> str:
    """Wait until `text` shows on the terminal, whatever escape sequences sit between its words;
    returns what was shown before it, as plain text."""
    words = [re.escape(word) for word in text.split(" ")]
    child.expect(r"(?:\x1b\[[0-9;?]*[A-Za-z]| )*".join(words))
    return plain(child.before)


def continue_with_settings(
    child: pexpect.spawn, words: str = "Continue with these settings"
) -> None:
    """The settings surface comes first; keeping the saved settings is one Enter (`words`: its
    entry, in the terminal's language)."""
    expect_plain(child, words)
    child.send(ENTER)


def run_summary(selection: dict[str, Any], home: Path, timeout: float = 20) -> pexpect.spawn:
    """The command a `pending_terminal_launch` response returns (its `summary`), run by a shell in
    a terminal of its own (as an agent's run-in-terminal tool does), from a directory that has
    nothing to do with the project and with a settings home of its own (the agent's terminal need
    not share the server's environment)."""
    elsewhere = home / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    return pexpect.spawn(
        "/bin/sh",
        ["-c", selection["summary"]],
        cwd=str(elsewhere),
        env=environment(elsewhere),
        encoding="utf-8",
        dimensions=(40, 160),
        timeout=timeout,
    )


def finish(child: pexpect.spawn) -> tuple[int, str]:
    """Wait for the command to end: its exit status and everything it showed, as plain text."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, plain(child.before)


def spawn_server_terminal(
    home: Path, *options: str, dimensions: tuple[int, int] = (40, 160)
) -> tuple[pexpect.spawn, str]:
    """`provide-choice serve --http 0 --no-auth OPTIONS` in a terminal window of its own
    (`dimensions`: rows, columns), and the URL it serves MCP on (to a client without a token: these
    tests are about the terminal)."""
    child = spawn(
        [COMMAND, "serve", "--http", "0", "--no-auth", *options], home, dimensions=dimensions
    )
    # Its first line, in the person's language: "MCP server at http://...", "MCP 服务器在 http://..."
    child.expect(r"provide-choice: MCP .*?(http://127\.0\.0\.1:\d+/mcp)")
    return child, child.match.group(1)
