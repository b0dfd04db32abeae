"""`provide-choice serve` spawned by the MCP SDK's stdio client, as an MCP client would run it."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pexpect
from attended import attended_environment
from mcp import Client, StdioServerParameters
from mcp_types import TextContent
from provide_choice_harness import COMMAND


def server(home: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser"],
        env=attended_environment(home),
    )


async def test_stdio_server_lists_tools_and_refuses_an_invalid_request(tmp_path: Path) -> None:
    async with Client(server(tmp_path)) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        invalid = await client.call_tool(
            "provide_choice",
            {"title": "Deploy", "selection_mode": "multi", "options": [], "min_selections": 2},
        )
        valid = await client.call_tool(
            "provide_choice",
            {
                "title": "Deploy",
                "prompt": "Which service should I deploy first?",
                "selection_mode": "single",
                "timeout_seconds": 1,
                "options": [
                    {"id": "api", "label": "API", "recommended": True},
                    {"id": "web", "label": "Web"},
                ],
            },
        )
    assert tools == {"provide_choice", "present_choices"}
    assert invalid.is_error
    (content,) = invalid.content
    assert isinstance(content, TextContent)
    assert content.text.splitlines()[1:] == [
        "- prompt is required",
        "- options must have at least 2 items for multi, got 0",
        "- min_selections must be at most the number of options (0), got 2",
    ]
    # Over stdio the terminal belongs to the client, so the question waits on the page
    # (nobody opens it here: it times out).
    assert not valid.is_error
    assert valid.structured_content is not None
    assert valid.structured_content["action_status"] == "timeout"
    assert valid.structured_content["selection"]["transport"] == "web"
    # Regression: the page's address was null in web results; a timeout carries it too.
    assert valid.structured_content["selection"]["url"].startswith("http://127.0.0.1:")


QUESTION = {
    "title": "Deploy",
    "prompt": "Which service should I deploy first?",
    "selection_mode": "single",
    "options": [
        {"id": "api", "label": "API", "recommended": True},
        {"id": "web", "label": "Web"},
    ],
}


class RawClient:
    """`provide-choice serve` on pipes, spoken to in JSON-RPC lines: a client that can vanish."""

    def __init__(self, home: Path, *arguments: str, **environment: str) -> None:
        self.process = subprocess.Popen(
            [COMMAND, "serve", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=attended_environment(home, **environment),
        )
        self.send("initialize", 1, protocolVersion="2025-11-25", capabilities={},
                  clientInfo={"name": "raw", "version": "1"})  # fmt: skip
        assert b'"id":1' in self.read_line()
        self.send("notifications/initialized")

    def send(self, method: str, request_id: int | None = None, **params: Any) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request_id is not None:
            message["id"] = request_id
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def read_line(self) -> bytes:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def ask(self, arguments: dict[str, Any]) -> None:
        self.send("tools/call", 2, name="provide_choice", arguments=arguments,
                  _meta={"progressToken": "p"})  # fmt: skip
        assert b'"notifications/progress"' in self.read_line()

    def stderr_after_exit(self) -> str:
        assert self.process.stderr is not None
        self.process.wait(15)
        return self.process.stderr.read().decode()


def test_regression_a_vanished_client_ends_the_server_quietly_with_status_0(
    tmp_path: Path,
) -> None:
    # A client killed with kill -9 made the server print a 60-line BrokenPipeError traceback
    # and exit 1.
    client = RawClient(tmp_path, "--no-browser")
    client.ask(QUESTION | {"timeout_seconds": 60})
    assert client.process.stdout is not None
    assert client.process.stdin is not None
    client.process.stdout.close()  # the client is gone: both its ends of the pipes close
    client.process.stdin.close()
    stderr = client.stderr_after_exit()
    assert client.process.returncode == 0
    assert "Traceback" not in stderr
    assert stderr.splitlines()[-1] == (
        "provide-choice: the MCP client went away (its end of stdio closed); stopping"
    )


def serve_in_a_terminal(tmp_path: Path) -> tuple[pexpect.spawn, Path]:
    """`provide-choice serve` over stdio with a terminal on stdin, as a person would start it;
    its stderr goes to the file returned."""
    errors = tmp_path / "stderr.txt"
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", 'exec "$0" serve 2>"$1"', COMMAND, str(errors)],
        env=attended_environment(tmp_path),
        timeout=10,
    )
    return child, errors


def test_regression_ctrl_c_stops_the_stdio_server(tmp_path: Path) -> None:
    # Over stdio only Ctrl-D stopped it: the SDK's stdin reader thread held it after Ctrl-C.
    child, errors = serve_in_a_terminal(tmp_path)
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "a terminal", "version": "1"}},
    }  # fmt: skip
    child.sendline(json.dumps(initialize))
    child.expect('"serverInfo"')  # serving: the SDK's thread is blocked reading stdin
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, "a stop the person asked for"
    assert errors.read_text().splitlines()[-1] == "provide-choice: stopped (Ctrl-C)"


def test_regression_serve_started_by_hand_in_a_terminal_says_once_what_it_is_for(
    tmp_path: Path,
) -> None:
    # Started by hand, it waited without a word, and Ctrl-D ended it with status 0 silently.
    child, errors = serve_in_a_terminal(tmp_path)
    deadline = time.monotonic() + 10
    while "Ctrl-D" not in (errors.read_text() if errors.exists() else ""):
        assert time.monotonic() < deadline, "no word on stderr"
        time.sleep(0.05)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    said = errors.read_text()
    assert said.startswith(
        "provide-choice serve: this is an MCP server on stdin and stdout, for an MCP client to start"
    )
    assert said.count("this is an MCP server") == 1
    for way in (
        "provide-choice client-config claude-code",
        "provide-choice ask REQUEST.json",
        "provide-choice serve --http 0",
    ):
        assert way in said


BROWSER_SCRIPT = '#!/bin/sh\nprintf \'%s\' "$1" > "$0.url"\n'


def test_regression_opening_the_browser_rings_no_bell(tmp_path: Path) -> None:
    # `python -m webbrowser` wrote BEL and a newline to stderr for every question asked.
    browser = tmp_path / "browser"
    browser.write_text(BROWSER_SCRIPT)
    browser.chmod(0o755)
    client = RawClient(tmp_path, BROWSER=str(browser))
    client.ask(QUESTION | {"timeout_seconds": 2})
    for _ in range(100):
        if Path(f"{browser}.url").exists():
            break
        time.sleep(0.05)
    assert Path(f"{browser}.url").read_text().startswith("http://127.0.0.1:")
    while b'"id":2' not in (line := client.read_line()):
        assert line, "the server ended before it answered"
    assert b'\\"action_status\\":\\"timeout\\"' in line, line
    assert client.process.stdin is not None
    client.process.stdin.close()
    stderr = client.stderr_after_exit()
    assert "\a" not in stderr
    assert stderr.splitlines() == [
        f"provide-choice: question waiting at {Path(f'{browser}.url').read_text()}"
    ]
