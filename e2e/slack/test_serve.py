"""Slack with `provide-choice serve` as an MCP client starts it (over stdio, the MCP SDK's own
client) and `provide-choice ask`, against a stand-in Slack on 127.0.0.1: a question asked on the
page is followed in Slack and answered there (the response names slack, the history keeps who
answered), one answered on the page is said so in Slack, `transport: "slack"` and `ask
--transport slack` ask in Slack alone with no page, Slack away at start is said once and noted in
the history, and neither token is in any output: stderr, the history, the page."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from alert_environment import environment
from mcp import Client, StdioServerParameters
from mcp_servers import call, call_on_page, until
from prompts import DATABASE_REQUEST
from provide_choice_harness import COMMAND, history_of
from slack_api import StandInSlack, slack_environment, stand_in_slack

QUESTION: dict[str, Any] = DATABASE_REQUEST | {"transport": "web"}


@pytest.fixture
def api() -> Iterator[StandInSlack]:
    with stand_in_slack() as running:
        yield running
        assert running.unacked() == [], "every envelope is acked"


@asynccontextmanager
async def serving(api: StandInSlack, home: Path) -> AsyncIterator[Client]:
    """`provide-choice serve --no-browser` over stdio, its stderr in `home/stderr`, its Slack
    plug-in pointed at the stand-in."""
    parameters = StdioServerParameters(
        command="/bin/sh",
        args=["-c", 'exec "$0" serve --no-browser 2>>"$1"', COMMAND, str(home / "stderr")],
        env=environment(home, **slack_environment(api)),
    )
    async with Client(parameters) as client:
        yield client


def everything_written(home: Path) -> str:
    """Every file the server wrote in its home (settings, history, its stderr), as text."""
    return "".join(
        path.read_bytes().decode("utf-8", "replace") for path in home.rglob("*") if path.is_file()
    )


def no_token(api: StandInSlack, text: str) -> bool:
    return api.bot_token not in text and api.app_token not in text


async def test_a_question_on_the_page_is_answered_in_slack(
    api: StandInSlack, tmp_path: Path
) -> None:
    async with serving(api, tmp_path) as client, httpx.AsyncClient() as http:
        asking, page = await call_on_page(client, QUESTION)
        await api.until(lambda: api.channel_messages() != [], "followed the question")
        state = (await http.get(f"{page}/state")).json()["state"]
        assert state["settings"]["alerts"]["slack"] is True
        channels = dict(state["setting_choices"]["alerts"]["channels"])
        assert (
            channels["slack"] == "In Slack (the configured channel, where it can be answered too)"
        )
        shown = (await http.get(page)).text + json.dumps(state)
        (message,) = api.channel_messages()
        await api.connected()
        api.person().presses(message, "SQLite")
        response = (await asyncio.wait_for(asking, 15)).structured_content
        assert response is not None
        assert response["answered_by"] == "person"
        assert response["selection"]["transport"] == "slack"
        assert response["selection"]["selected_ids"] == ["lite"]
        assert "U0ADA" not in json.dumps(response), "who answered is not the agent's"
        await api.until(lambda: message.buttons == [], "ended the message")
        assert message.plain.endswith("Answered in Slack by ada (U0ADA): SQLite")

        second, second_page = await call_on_page(client, QUESTION)
        await api.until(lambda: len(api.channel_messages()) == 2, "followed the second question")
        answer = {"kind": "answered", "selected_ids": ["pg"]}
        assert (await http.post(f"{second_page}/answer", json=answer)).status_code == 200
        assert (await asyncio.wait_for(second, 15)).structured_content["selection"][
            "transport"
        ] == "web"
        followed = api.channel_messages()[1]
        await api.until(lambda: followed.buttons == [], "ended the second message")
        assert followed.plain.endswith("Answered on the page: PostgreSQL")
    history = await asyncio.to_thread(history_of, tmp_path)
    assert [entry["selection"]["transport"] for entry in history] == ["web", "slack"]
    assert [entry["person"] for entry in history] == [None, "ada (U0ADA)"]
    assert no_token(api, shown + everything_written(tmp_path) + json.dumps(history))


async def test_asked_in_slack_alone_no_page_is_opened(api: StandInSlack, tmp_path: Path) -> None:
    async with serving(api, tmp_path) as client:
        asking = asyncio.create_task(call(client, DATABASE_REQUEST | {"transport": "slack"}))
        await api.until(lambda: api.channel_messages() != [], "asked in Slack")
        await api.connected()
        api.person().presses(api.channel_messages()[0], "PostgreSQL")
        response = await asyncio.wait_for(asking, 15)
    assert response["selection"]["transport"] == "slack"
    assert response["selection"]["url"] is None
    assert "/choice/" not in (tmp_path / "stderr").read_text()


async def test_slack_away_at_start_is_said_once_and_noted_and_the_page_still_answers(
    api: StandInSlack, tmp_path: Path
) -> None:
    api.stop()
    errors = tmp_path / "stderr"
    async with serving(api, tmp_path) as client, httpx.AsyncClient() as http:
        asking, page = await call_on_page(client, QUESTION)
        await until(lambda: "Slack cannot be reached" in errors.read_text(), "said so")
        answer = {"kind": "answered", "selected_ids": ["pg"]}
        assert (await http.post(f"{page}/answer", json=answer)).status_code == 200
        response = (await asyncio.wait_for(asking, 15)).structured_content
    assert response is not None
    assert response["selection"]["transport"] == "web"
    said = [line for line in errors.read_text().splitlines() if "Slack" in line]
    assert len(said) == 1, said
    (entry,) = await asyncio.to_thread(history_of, tmp_path)
    assert entry["alert_failed"].startswith("slack: ConnectError")
    assert no_token(api, everything_written(tmp_path))


def test_ask_with_transport_slack_asks_there_without_a_terminal(
    api: StandInSlack, tmp_path: Path
) -> None:
    asking = subprocess.Popen(
        [COMMAND, "ask", "--transport", "slack", "--json", json.dumps(DATABASE_REQUEST)],
        env=environment(tmp_path, **slack_environment(api)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        api.wait(lambda: api.channel_messages() != [] and api.connections_opened > 0, "asked", 20)
        (message,) = api.channel_messages()
        api.person().presses(message, "SQLite")
        out, err = asking.communicate(timeout=20)
    finally:
        asking.kill()
    assert asking.returncode == 0, err
    response = json.loads(out)
    assert response["selection"]["transport"] == "slack"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert message.plain.endswith("Answered in Slack by ada (U0ADA): SQLite"), "before ask exits"
    assert "http://" not in err
    assert no_token(api, out + err)
