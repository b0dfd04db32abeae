"""Telegram with `provide-choice serve` as an MCP client starts it (over stdio, the MCP SDK's own
client) and `provide-choice ask`, against a stand-in Bot API on 127.0.0.1: a question asked on
the page is followed in Telegram and answered there (the response names telegram), one answered
on the page is said so in Telegram, `transport: "telegram"` and `ask --transport telegram` ask in
Telegram alone with no page, Telegram away at start is said once and noted in the history, and
the bot's token is in no output: stderr, the history, the page."""

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
from telegram_api import StandInBotApi, stand_in_bot_api, telegram_environment

QUESTION: dict[str, Any] = DATABASE_REQUEST | {"transport": "web"}


@pytest.fixture
def api() -> Iterator[StandInBotApi]:
    with stand_in_bot_api() as running:
        yield running


@asynccontextmanager
async def serving(api: StandInBotApi, home: Path) -> AsyncIterator[Client]:
    """`provide-choice serve --no-browser` over stdio, its stderr in `home/stderr`, its Telegram
    plug-in pointed at the stand-in and linked."""
    parameters = StdioServerParameters(
        command="/bin/sh",
        args=["-c", 'exec "$0" serve --no-browser 2>>"$1"', COMMAND, str(home / "stderr")],
        env=environment(home, **telegram_environment(api)),
    )
    async with Client(parameters) as client:
        yield client


def everything_written(home: Path) -> str:
    """Every file the server wrote in its home (settings, history, its stderr), as text."""
    return "".join(
        path.read_bytes().decode("utf-8", "replace") for path in home.rglob("*") if path.is_file()
    )


async def test_a_question_on_the_page_is_answered_in_telegram(
    api: StandInBotApi, tmp_path: Path
) -> None:
    async with serving(api, tmp_path) as client, httpx.AsyncClient() as http:
        asking, page = await call_on_page(client, QUESTION)
        await api.until(lambda: api.bot_messages() != [], "followed the question")
        state = (await http.get(f"{page}/state")).json()["state"]
        assert state["settings"]["alerts"]["telegram"] is True
        channels = dict(state["setting_choices"]["alerts"]["channels"])
        assert channels["telegram"] == "In Telegram (the linked chat, where it can be answered too)"
        shown = (await http.get(page)).text + json.dumps(state)
        (card,) = api.bot_messages()
        api.person().presses(card, "SQLite")
        result = await asyncio.wait_for(asking, 15)
        response = result.structured_content
        assert response is not None
        assert response["answered_by"] == "person"
        assert response["selection"]["transport"] == "telegram"
        assert response["selection"]["selected_ids"] == ["lite"]
        assert response["selection"]["url"] == page
        await api.until(lambda: card.buttons == [], "ended the message")
        assert card.plain.endswith("Answered in Telegram: SQLite")

        second, second_page = await call_on_page(client, QUESTION)
        await api.until(lambda: len(api.bot_messages()) == 2, "followed the second question")
        answer = {"kind": "answered", "selected_ids": ["pg"]}
        assert (await http.post(f"{second_page}/answer", json=answer)).status_code == 200
        assert (await asyncio.wait_for(second, 15)).structured_content["selection"][
            "transport"
        ] == "web"
        followed = api.bot_messages()[1]
        await api.until(lambda: followed.buttons == [], "ended the second message")
        assert followed.plain.endswith("Answered on the page: PostgreSQL")
    history = await asyncio.to_thread(history_of, tmp_path)
    assert [entry["selection"]["transport"] for entry in history] == ["web", "telegram"]
    assert [entry["transport"] for entry in history] == ["web", "web"]
    assert api.token not in shown + everything_written(tmp_path) + json.dumps(history)


async def test_asked_in_telegram_alone_no_page_is_opened(
    api: StandInBotApi, tmp_path: Path
) -> None:
    async with serving(api, tmp_path) as client:
        asking = asyncio.create_task(call(client, DATABASE_REQUEST | {"transport": "telegram"}))
        await api.until(lambda: api.bot_messages() != [], "asked in Telegram")
        api.person().presses(api.bot_messages()[0], "PostgreSQL")
        response = await asyncio.wait_for(asking, 15)
    assert response["selection"]["transport"] == "telegram"
    assert response["selection"]["url"] is None
    assert "/choice/" not in (tmp_path / "stderr").read_text()


async def test_telegram_away_at_start_is_said_once_and_noted_and_the_page_still_answers(
    api: StandInBotApi, tmp_path: Path
) -> None:
    api.stop()
    errors = tmp_path / "stderr"
    async with serving(api, tmp_path) as client, httpx.AsyncClient() as http:
        asking, page = await call_on_page(client, QUESTION)
        await until(lambda: "Telegram cannot be reached" in errors.read_text(), "said so")
        answer = {"kind": "answered", "selected_ids": ["pg"]}
        assert (await http.post(f"{page}/answer", json=answer)).status_code == 200
        response = (await asyncio.wait_for(asking, 15)).structured_content
    assert response is not None
    assert response["selection"]["transport"] == "web"
    said = [line for line in errors.read_text().splitlines() if "Telegram" in line]
    assert len(said) == 1, said
    (entry,) = await asyncio.to_thread(history_of, tmp_path)
    assert entry["alert_failed"].startswith("telegram: ConnectError")
    assert api.token not in everything_written(tmp_path)


def test_ask_with_transport_telegram_asks_there_without_a_terminal(
    api: StandInBotApi, tmp_path: Path
) -> None:
    asking = subprocess.Popen(
        [COMMAND, "ask", "--transport", "telegram", "--json", json.dumps(DATABASE_REQUEST)],
        env=environment(tmp_path, **telegram_environment(api)),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        api.wait(lambda: api.bot_messages() != [], "asked in Telegram", 20)
        (card,) = api.bot_messages()
        api.person().presses(card, "SQLite")
        out, err = asking.communicate(timeout=20)
    finally:
        asking.kill()
    assert asking.returncode == 0, err
    response = json.loads(out)
    assert response["selection"]["transport"] == "telegram"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert card.plain.endswith("Answered in Telegram: SQLite"), "edited before ask exits"
    assert "http://" not in err
    assert api.token not in out + err
