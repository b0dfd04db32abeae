"""The documentation's "Write your own transport" (docs/transports.md), run as written: its module and its pyproject are
installed (pip, into a folder of their own put on the server's path), and `provide-choice serve`,
spawned as an MCP client would, loads it through its entry point. pip builds it with the test
environment's setuptools and asks no index: no test reaches the internet (in an isolated build, pip
would fetch its setuptools from PyPI)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest
from attended import attended_environment
from documented import blocks
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from provide_choice_harness import COMMAND

QUESTION: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL"},
        {"id": "lite", "label": "SQLite", "recommended": True},
    ],
}
BATCH: dict[str, Any] = {
    "title": "Project set-up",
    "timeout_seconds": 1,
    "questions": [
        {
            "id": "db",
            "header": "Database",
            "prompt": "Which one?",
            "selection_mode": "single",
            "options": QUESTION["options"],
        },
        {"id": "name", "header": "Name", "prompt": "Its name?", "selection_mode": "text_input"},
    ],
}
BROKEN_ENTRY_POINTS = """\
[provide_choice.transports]
missing = no_such_module_here:Nothing
plain = json:dumps
"""


def documented_file(name: str) -> str:
    """The documented code block that starts with the comment `# name`."""
    (block,) = blocks(start=f"# {name}\n")
    return block.text


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documented plug-in, installed by pip into a folder of its own (no copy of agent-choices:
    the server's own is used)."""
    project = tmp_path_factory.mktemp("postcard-project")
    (project / "postcard_transport.py").write_text(documented_file("postcard_transport.py"))
    (project / "pyproject.toml").write_text(documented_file("pyproject.toml"))
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "--target",
            str(target),
            str(project),
        ],
        check=True,
        timeout=120,
    )
    assert list(target.glob("postcard_transport-*.dist-info/entry_points.txt"))
    return target


def server(home: Path, *paths: Path) -> StdioServerParameters:
    path = os.pathsep.join(str(path) for path in paths)
    return StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser"],
        env=attended_environment(home, PYTHONPATH=path),
    )


async def history(home: Path, *options: str) -> str:
    """What `provide-choice history OPTIONS` prints, run without the plug-in on its path."""
    process = await asyncio.create_subprocess_exec(
        COMMAND,
        "history",
        *options,
        env=attended_environment(home),
        stdout=asyncio.subprocess.PIPE,
    )
    output, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0
    return output.decode()


def selection(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return dict(result.structured_content["selection"])


async def test_the_documented_plugin_is_asked_by_name_by_auto_and_named_by_its_label(
    tmp_path: Path, plugin_path: Path
) -> None:
    async with Client(server(tmp_path, plugin_path)) as client:
        named = selection(
            await client.call_tool("provide_choice", QUESTION | {"transport": "postcard"})
        )
        automatic = selection(await client.call_tool("provide_choice", QUESTION))
        batch = selection(await client.call_tool("provide_choice", BATCH))
    assert (named["transport"], named["selected_ids"], named["summary"]) == (
        "postcard",
        ["lite"],
        "Selected: SQLite.",
    )
    # auto_order=5 puts it before the server's terminal, the app, the dialog and the page.
    assert (automatic["transport"], automatic["selected_ids"]) == ("postcard", ["lite"])
    # It shows no batches: the batch goes past it to the page, and the summary says so by its label.
    assert batch["transport"] == "web"
    assert batch["summary"].endswith(
        "(Asked in the browser: a postcard cannot show several questions at once.)"
    )
    rows = [json.loads(line) for line in (await history(tmp_path, "--json")).splitlines()]
    labels = [(row["transport"], row["transport_label"]) for row in reversed(rows)]
    assert labels == [
        ("postcard", "A postcard"),
        ("postcard", "A postcard"),
        ("web", "The browser"),
    ]
    # Where it is not installed, the history still names it as it was.
    assert (await history(tmp_path)).count("A postcard") == 2


async def test_a_broken_plugin_is_one_line_on_stderr_and_the_server_still_answers(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "broken-site"
    info = broken / "broken_transports-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-transports\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(BROKEN_ENTRY_POINTS)
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as log:
        async with Client(stdio_client(server(tmp_path, broken), errlog=log)) as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
    assert "provide_choice" in tools
    lines = [line for line in errors.read_text().splitlines() if "plug-in" in line]
    assert len(lines) == 2, lines
    missing, plain = lines
    assert "no_such_module_here:Nothing did not load (ModuleNotFoundError" in missing
    assert "json:dumps is not a transport" in plain
    assert all(line.startswith("provide-choice: warning: transport plug-in ") for line in lines)


def test_the_documented_module_reads_only_the_public_seam() -> None:
    imports = re.findall(
        r"^from (\S+) import", documented_file("postcard_transport.py"), re.MULTILINE
    )
    assert set(imports) == {"provide_choice", "provide_choice.transports"}


def test_ask_asks_on_the_plugin_named_without_a_terminal_and_by_its_automatic_place(
    tmp_path: Path, plugin_path: Path
) -> None:
    environment = attended_environment(
        tmp_path, PYTHONPATH=str(plugin_path), PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm"
    )
    named = subprocess.run(
        [COMMAND, "ask", "--json", json.dumps(QUESTION | {"transport": "postcard"})],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["selection"]["transport"] == "postcard"
    # In a terminal, with nothing named: auto_order=5 puts it before this terminal.
    answer = tmp_path / "answer.json"
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", 'exec "$0" ask --json "$1" > "$2"', COMMAND, json.dumps(QUESTION), str(answer)],
        env=environment,
        encoding="utf-8",
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Continue with these settings" not in child.before, "drawn in the terminal"
    automatic = json.loads(answer.read_text())["selection"]
    assert (automatic["transport"], automatic["selected_ids"]) == ("postcard", ["lite"])


def test_serve_in_a_terminal_says_questions_go_to_the_plugin_that_comes_first(
    tmp_path: Path, plugin_path: Path
) -> None:
    child = pexpect.spawn(
        COMMAND,
        ["serve", "--http", "0", "--no-auth", "--no-browser"],
        env=attended_environment(tmp_path, PYTHONPATH=str(plugin_path), TERM="xterm"),
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect(r"provide-choice: MCP server at http://127\.0\.0\.1:\d+/mcp; (.*?)\r?\n")
        assert child.match.group(1) == "questions go to a postcard."
    finally:
        child.terminate(force=True)
