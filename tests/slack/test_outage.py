"""Slack away never blocks: a dropped WebSocket is opened again (after Socket Mode's `disconnect`
at once); Slack unreachable is said once on stderr for the whole outage (not once per try), noted
in the question's history (`alert_failed`, naming slack), tried again with growing pauses; the
question waits meanwhile, and nothing is lost once Slack is back. The tokens are never shown: not
on stderr, not in a log line, not in the history."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from slack_api import StandInSlack
from telegram_server import Server
from waiting import until

from provide_choice import Answered, Cancelled

REQUEST: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
AWAY = "provide-choice: warning: Slack cannot be reached ("
ADA = "ada (U0ADA)"


async def test_a_disconnect_envelope_is_answered_by_a_new_connection(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(REQUEST, transport="slack")
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    (message,) = api.channel_messages()
    await api.connected()
    api.disconnect()
    await api.connected(2)
    assert len(api.sent("apps.connections.open")) == 2
    api.person().presses(message, "SQLite")
    outcome = await asyncio.wait_for(asked.wait(), 5)
    assert outcome == Answered(selected_ids=["lite"], via="slack", person=ADA)


async def test_a_dropped_connection_is_opened_again(
    server: Server, api: StandInSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = await server.ask(REQUEST, transport="slack")
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    (message,) = api.channel_messages()
    await api.connected()
    api.drop()
    await api.connected(2)
    api.person().presses(message, "PostgreSQL")
    outcome = await asyncio.wait_for(asked.wait(), 5)
    assert outcome == Answered(selected_ids=["pg"], via="slack", person=ADA)
    assert capsys.readouterr().err.count(AWAY) <= 1


async def test_unreachable_at_start_is_said_once_noted_and_the_question_is_posted_once_back(
    server: Server, api: StandInSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    api.stop()
    asked = await server.ask(REQUEST, transport="web")
    await until(lambda: server.failed != [], "noted that Slack could not show it")
    await asyncio.sleep(1.0)  # more tries, and their pauses, fail: said once all the same
    err = capsys.readouterr().err
    assert err.count(AWAY) == 1, err
    assert err.startswith(AWAY + "ConnectError")
    ((question_id, problem),) = server.failed
    assert question_id == asked.id
    assert problem.startswith("slack: ConnectError")
    assert asked.outcome is None
    api.start()
    await api.until(lambda: api.channel_messages() != [], "posted the question once back", 15)
    (message,) = api.channel_messages()
    await api.connected()
    api.person().presses(message, "PostgreSQL")
    outcome = await asyncio.wait_for(asked.wait(), 10)
    assert outcome == Answered(selected_ids=["pg"], via="slack", person=ADA)
    assert capsys.readouterr().err == ""


async def test_unreachable_later_loses_no_ending_and_says_so_once(
    server: Server, api: StandInSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.channel_messages() != [], "followed the question")
    (message,) = api.channel_messages()
    await api.connected()
    api.stop()  # the WebSocket drops too: reconnecting fails, and so does the ending's update
    asked.finish(Answered(selected_ids=["lite"]))
    await until(lambda: AWAY in capsys.readouterr().err, "said Slack is away")
    await asyncio.sleep(1.0)  # more tries fail: said once all the same
    assert AWAY not in capsys.readouterr().err
    assert message.buttons != [], "not updated while Slack is away"
    api.start()
    await api.until(lambda: message.buttons == [], "updated once back", 15)
    assert message.plain.endswith("Answered on the page: SQLite")
    assert server.failed == [], "the question was shown in Slack: no alert of it failed"


async def test_a_refused_channel_is_said_and_noted(
    server: Server, api: StandInSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    api.unreachable_channels.add("C0QUESTIONS")
    asked = await server.ask(REQUEST, transport="web")
    await until(lambda: server.failed != [], "noted that Slack could not show it")
    assert server.failed == [(asked.id, "slack: chat.postMessage: not_in_channel")]
    assert "Slack refused chat.postMessage: not_in_channel" in capsys.readouterr().err
    asked.finish(Cancelled(by="agent"))


async def test_the_tokens_are_in_no_line_said_or_logged_nor_in_the_history(
    server: Server,
    api: StandInSlack,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.channel_messages() != [], "followed the question")
    await api.connected()
    api.stop()
    asked.finish(Answered(selected_ids=["pg"]))
    await asyncio.sleep(0.5)
    api.start()
    await api.until(lambda: api.channel_messages()[0].buttons == [], "updated once back", 15)
    said = capsys.readouterr().err + caplog.text
    assert "chat.postMessage" in caplog.text, "httpx logs its requests"
    for token in (api.bot_token, api.app_token):
        assert token not in said
        assert token.split("-")[-1] not in said
        assert token not in repr(server.failed)
    assert all(call.token in (api.bot_token, api.app_token) for call in api.calls)
    opened = api.sent("apps.connections.open")
    assert opened
    assert all(call.token == api.app_token for call in opened)
    posted = api.sent("chat.postMessage")
    assert all(call.token == api.bot_token for call in posted)
