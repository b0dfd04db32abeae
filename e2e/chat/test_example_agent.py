"""The documented sample AG-UI agent, run as the pages write it (issue 33): `.venv/bin/python
examples/agui_agent.py --port 8000` in a real process, then `choices-chat --agent ag-ui --url
http://127.0.0.1:8000/agent` in front of it (both on a free port instead of 8000), in a real Chromium.
It greets, asks with `present_choices` (drawn as buttons), answers the pick, and asks for an approval.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from documented import command_line
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

from chat_harness import accessible, chat_server, log, option, send
from playwright.async_api import Page, expect
from ports import free_port

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTED_PORT = "8000"
QUESTION = "Which service shall I deploy to staging?"
APPROVAL = 'Approve deploy({"service":"web"})?'


def on_port(words: list[str], port: int) -> list[str]:
    return [word.replace(DOCUMENTED_PORT, str(port)) for word in words]


@pytest.fixture(scope="module")
def agent_port() -> Iterator[int]:
    port = free_port()
    python, *arguments = on_port(command_line(".venv/bin/python examples/agui_agent.py"), port)
    assert python == ".venv/bin/python"
    agent = subprocess.Popen(
        [sys.executable, *arguments], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert agent.poll() is None, f"the sample agent exited: {agent.communicate()[0]!r}"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the sample agent did not serve within 30 s"
                time.sleep(0.1)
        yield port
    finally:
        agent.terminate()
        agent.wait(timeout=10)


@pytest.fixture(scope="module")
def chat_url(agent_port: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = on_port(
        command_line("choices-chat --agent ag-ui --url http://127.0.0.1:"), agent_port
    )
    with chat_server(command[1:], tmp_path_factory.mktemp("chat")) as url:
        yield url


async def test_the_sample_agent_asks_with_buttons_answers_the_pick_and_asks_for_approval(
    page: Page,
) -> None:
    await send(page, "Hello")
    await expect(log(page)).to_contain_text("I'm a scripted sample agent")
    await option(page, QUESTION, "Web front end").click()
    await expect(log(page)).to_contain_text("Web front end it is.")
    approve = page.get_by_role("group", name=APPROVAL).get_by_role("button", name="Approve")
    assert await accessible(page)
    await approve.click()
    await expect(log(page)).to_contain_text("Done: Web front end is live on staging (build 1.4.2).")
    await expect(option(page, QUESTION, "Web front end")).to_have_attribute("aria-pressed", "true")
    await expect(approve).to_have_attribute("aria-pressed", "true")
