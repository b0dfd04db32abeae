"""`provide-choice serve` in CI, spawned by the MCP SDK's stdio client: nobody is asked and the agent
hears so at once; `--attended` asks all the same; an answers file answers first, and a broken one
stops the server before it serves."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

from attended import attended_environment
from mcp import Client, StdioServerParameters
from mcp_servers import PAGE_ADDRESS, structured
from prompts import DATABASE_REQUEST
from provide_choice_harness import COMMAND
from timing import bound

QUESTION = DATABASE_REQUEST | {"default_selection_ids": ["pg"]}


def server(home: Path, *options: str, **environment: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser", *options],
        env=attended_environment(home, **environment),
    )


async def test_in_ci_the_answers_file_answers_first_and_the_rest_at_once_as_nobody_s(
    tmp_path: Path,
) -> None:
    rules = {"answers": [{"title_matches": "^Cache", "selected_ids": ["lite"], "note": "in CI"}]}
    (tmp_path / "answers.json").write_text(json.dumps(rules))
    answers = str(tmp_path / "answers.json")
    async with Client(server(tmp_path, CI="true", PROVIDE_CHOICE_ANSWERS=answers)) as client:
        started = time.monotonic()
        nobody = structured(await client.call_tool("provide_choice", QUESTION))
        took = time.monotonic() - started
        cache: dict[str, Any] = QUESTION | {"title": "Cache"}
        from_file = structured(await client.call_tool("provide_choice", cache))
    assert took < bound(1), f"took {took:.2f} s"
    assert (nobody["action_status"], nobody["answered_by"]) == ("unattended", "nobody")
    assert nobody["selection"]["selected_ids"] == ["pg"]
    assert nobody["selection"]["summary"] == (
        "Nobody was asked: the server runs unattended (CI is set); defaults returned, not chosen "
        "by a person: PostgreSQL."
    )
    assert (from_file["action_status"], from_file["answered_by"]) == ("selected", "answers_file")
    assert from_file["selection"]["summary"] == (
        f"Selected: SQLite (with an overall note). (from the answers file {answers})"
    )


async def test_attended_with_ci_set_the_question_is_asked_as_usual(tmp_path: Path) -> None:
    pages: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        pages.extend(found.group(1) for found in [PAGE_ADDRESS.search(message or "")] if found)

    async with Client(server(tmp_path, "--attended", "--max-wait", "0.5", CI="true")) as client:
        result = await client.call_tool("provide_choice", QUESTION, progress_callback=on_progress)
    response = structured(result)
    assert (response["action_status"], response["answered_by"]) == ("pending", "nobody")
    assert response["selection"]["transport"] == "web"
    assert pages == [response["selection"]["url"]]


def test_a_malformed_answers_file_stops_the_server_with_status_2_and_one_line(
    tmp_path: Path,
) -> None:
    broken = tmp_path / "answers.json"
    broken.write_text('{"answers": [\n  {"title": "Database", "selected_ids": ["pg"],}\n]}')
    started = subprocess.run(
        [COMMAND, "serve", "--answers", str(broken)],
        env=attended_environment(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert started.returncode == 2
    assert started.stdout == ""
    assert started.stderr == (
        f"provide-choice serve: the answers file {broken} is not valid JSON: Expecting property "
        "name enclosed in double quotes (line 2, column 48)\n"
    )
