"""`provide-choice ask` run without a terminal, as an agent's shell tool runs it (stdin and stdout
no terminal): when `--transport` or the request names the page, it says the page's address on
stderr, opens the browser as `serve` does, waits for the answer and prints its JSON on stdout,
exit 0; when nothing names where to ask, it refuses, naming `--transport web`."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from attended import attended_environment
from provide_choice_harness import COMMAND

REQUEST: dict[str, Any] = {
    "title": "Go on?",
    "prompt": "The migration is ready to run.",
    "selection_mode": "single",
    "options": [
        {"id": "yes", "label": "Yes, run it", "recommended": True},
        {"id": "no", "label": "Not now"},
    ],
}
PAGE = re.compile(r"provide-choice: question waiting at (http://127\.0\.0\.1:\d+/choice/\w+)")


def browser(home: Path) -> tuple[Path, Path]:
    """A stand-in for the person's browser (`$BROWSER`): it notes each address it is given."""
    opened = home / "opened.txt"
    script = home / "browser"
    script.write_text(f'#!/bin/sh\necho "$1" >> "{opened}"\n')
    script.chmod(0o755)
    return script, opened


@pytest.mark.parametrize(
    ("arguments", "request_"),
    [(["--transport", "web"], REQUEST), ([], REQUEST | {"transport": "web"})],
    ids=["--transport web", "the request's transport"],
)
async def test_named_the_page_ask_says_its_address_opens_it_and_prints_the_answer(
    tmp_path: Path, arguments: list[str], request_: dict[str, Any]
) -> None:
    script, opened = browser(tmp_path)
    process = await asyncio.create_subprocess_exec(
        COMMAND,
        "ask",
        *arguments,
        "--json",
        json.dumps(request_),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=attended_environment(tmp_path, BROWSER=str(script)),
    )
    assert process.stderr is not None
    said = ""
    while not (found := PAGE.search(said)):
        line = await asyncio.wait_for(process.stderr.readline(), 20)
        assert line, f"it ended without a page: {said}"
        said += line.decode()
    page = found.group(1)
    for _ in range(200):  # the browser is started in the background
        if opened.exists():
            break
        await asyncio.sleep(0.05)
    assert opened.read_text().split() == [page]
    async with httpx.AsyncClient() as http:
        answer = {"kind": "answered", "selected_ids": ["no"]}
        assert (await http.post(page + "/answer", json=answer)).status_code == 200
    stdout, rest = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 0, rest.decode()
    response = json.loads(stdout)
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["no"]
    assert response["selection"]["transport"] == "web"
    assert response["selection"]["url"] == page


async def test_with_nothing_named_and_no_terminal_it_refuses_naming_the_page(
    tmp_path: Path,
) -> None:
    process = await asyncio.create_subprocess_exec(
        COMMAND,
        "ask",
        "--json",
        json.dumps(REQUEST),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=attended_environment(tmp_path),
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 2
    assert stdout == b""
    said = stderr.decode()
    assert said.startswith("provide-choice ask: needs a terminal, and stdin is not one.")
    assert "--transport web" in said
