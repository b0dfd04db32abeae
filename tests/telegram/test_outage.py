"""Telegram away never blocks: unreachable at start or later, it is said once on stderr for the
whole time it is away (not once per try), noted in the question's history (`alert_failed`,
naming telegram), tried again with growing pauses; the question waits meanwhile, and nothing is
lost once Telegram is back. The token is never shown: not on stderr, not in a log line."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from telegram_api import StandInBotApi
from telegram_server import Server
from waiting import until

from provide_choice import Answered

REQUEST: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
AWAY = "provide-choice: warning: Telegram cannot be reached ("


async def stderr_until(capsys: pytest.CaptureFixture[str], text: str) -> str:
    """What was said on stderr until `text` was."""
    said: list[str] = []

    def found() -> bool:
        said.append(capsys.readouterr().err)
        return text in "".join(said)

    await until(found, f"said {text!r}")
    return "".join(said)


async def test_unreachable_at_start_is_said_once_noted_and_the_question_is_sent_once_back(
    server: Server, api: StandInBotApi, capsys: pytest.CaptureFixture[str]
) -> None:
    api.stop()
    asked = await server.ask(REQUEST, transport="web")
    await until(lambda: server.failed != [], "noted that Telegram could not show it")
    await asyncio.sleep(1.0)  # more tries, and their pauses, fail: said once all the same
    err = capsys.readouterr().err
    assert err.count(AWAY) == 1, err
    assert err.startswith(AWAY + "ConnectError")
    ((question_id, problem),) = server.failed
    assert question_id == asked.id
    assert problem.startswith("telegram: ConnectError")
    assert asked.outcome is None
    api.start()
    await api.until(lambda: api.bot_messages() != [], "sent the question once back", 15)
    (card,) = api.bot_messages()
    api.person().presses(card, "PostgreSQL")
    assert await asyncio.wait_for(asked.wait(), 10) == Answered(selected_ids=["pg"], via="telegram")
    assert capsys.readouterr().err == ""


async def test_unreachable_later_loses_no_ending(
    server: Server, api: StandInBotApi, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.bot_messages() != [], "followed the question")
    (card,) = api.bot_messages()
    api.stop()
    asked.finish(Answered(selected_ids=["lite"]))
    said = await stderr_until(capsys, AWAY)
    await asyncio.sleep(1.0)  # more tries fail: said once all the same
    assert (said + capsys.readouterr().err).count(AWAY) == 1
    assert card.buttons != [], "not edited while Telegram is away"
    api.start()
    await api.until(lambda: card.buttons == [], "edited once back", 15)
    assert card.plain.endswith("Answered on the page: SQLite")
    assert server.failed == [], "the question was shown in Telegram: no alert of it failed"


async def test_a_question_asked_in_telegram_alone_waits_for_telegram(
    server: Server, api: StandInBotApi, capsys: pytest.CaptureFixture[str]
) -> None:
    api.stop()
    asked = await server.ask(REQUEST)
    await until(lambda: server.failed != [], "noted that Telegram could not show it")
    assert capsys.readouterr().err.count(AWAY) == 1
    assert [problem.split(":")[0] for _id, problem in server.failed] == ["telegram"]
    api.start()
    await api.until(lambda: api.bot_messages() != [], "sent the question once back", 15)
    api.person().presses(api.bot_messages()[0], "SQLite")
    assert await asyncio.wait_for(asked.wait(), 10) == Answered(
        selected_ids=["lite"], via="telegram"
    )


async def test_the_token_is_in_no_line_said_or_logged(
    server: Server,
    api: StandInBotApi,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.bot_messages() != [], "followed the question")
    api.stop()
    asked.finish(Answered(selected_ids=["pg"]))
    await asyncio.sleep(0.5)
    api.start()
    await api.until(lambda: api.bot_messages()[0].buttons == [], "edited once back", 15)
    said = capsys.readouterr().err + caplog.text
    assert "/bot***/sendMessage" in caplog.text, "httpx logs its requests, the token hidden"
    assert api.token not in said
    assert api.token.split(":")[1] not in said
    assert api.token not in repr(server.failed)
