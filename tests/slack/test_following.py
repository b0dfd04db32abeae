"""Every question asked elsewhere is also posted in Slack (the `slack` alert channel), the first
answer anywhere wins, and the message says how the question ended wherever it ended; only the
allowed users answer, an action on an ended question changes nothing, and agent text stays text."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from slack_api import OTHER_USER, StandInSlack
from telegram_server import Server, start_server

from provide_choice import Answered, Cancelled, TimedOut
from provide_choice._transports._base import close_transports

REQUEST: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


async def test_a_question_on_the_page_is_followed_in_slack_and_answered_there(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.channel_messages() != [], "followed the question")
    (message,) = api.channel_messages()
    await api.connected()
    api.person().presses(message, "SQLite")
    outcome = await asyncio.wait_for(asked.wait(), 10)
    assert outcome == Answered(selected_ids=["lite"], via="slack", person="ada (U0ADA)")
    await api.until(lambda: message.buttons == [], "ended the message")
    assert message.plain.endswith("Answered in Slack by ada (U0ADA): SQLite")


@pytest.mark.parametrize(
    ("transport", "where"),
    [("web", "on the page"), ("terminal", "in the terminal"), ("telegram", "in Telegram")],
)
async def test_answered_elsewhere_the_message_says_where_and_a_press_then_has_ended(
    server: Server, api: StandInSlack, transport: str, where: str
) -> None:
    asked = await server.ask(REQUEST, transport="web" if transport == "telegram" else transport)
    await api.until(lambda: api.channel_messages() != [], "followed the question")
    (message,) = api.channel_messages()
    await api.connected()
    buttons = message.elements
    via = transport if transport == "telegram" else None
    assert asked.finish(Answered(selected_ids=["pg"], via=via))
    await api.until(lambda: message.buttons == [], "ended the message")
    assert message.plain.endswith(f"Answered {where}: PostgreSQL")
    person = api.person()
    person.acts(message, {**buttons[1], "value": buttons[1]["value"]})  # a client not yet redrawn
    assert await person.told(1) == "This question has ended"
    assert asked.outcome == Answered(selected_ids=["pg"], via=via)


@pytest.mark.parametrize(
    ("ending", "said"),
    [
        (TimedOut(action="return_nothing"), "Timed out: no answer before the deadline"),
        (Cancelled(by="agent"), "Cancelled by the agent"),
        (Cancelled(), "Cancelled on the page"),
    ],
)
async def test_a_timeout_or_a_cancel_elsewhere_is_said_too(
    server: Server, api: StandInSlack, ending: Any, said: str
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.channel_messages() != [], "followed the question")
    (message,) = api.channel_messages()
    asked.finish(ending)
    await api.until(lambda: message.buttons == [], "ended the message")
    assert message.plain.endswith(said)


async def test_the_deadline_ends_the_message_by_itself(server: Server, api: StandInSlack) -> None:
    asked = await server.ask(REQUEST, transport="slack", seconds=1)
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    (message,) = api.channel_messages()
    assert isinstance(await asyncio.wait_for(asked.wait(), 5), TimedOut)
    await api.until(lambda: message.buttons == [], "ended the message")
    assert message.plain.endswith("Timed out: no answer before the deadline")


async def test_a_question_asked_in_slack_is_posted_once(server: Server, api: StandInSlack) -> None:
    await server.ask(REQUEST, transport="slack")
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    await asyncio.sleep(0.6)  # past the alerts' pause: a second copy would be there by now
    assert len(api.channel_messages()) == 1


async def test_with_its_channel_off_nothing_goes_to_slack(
    server: Server, api: StandInSlack
) -> None:
    await server.ask(REQUEST, transport="web", alerts={"slack": False})
    await asyncio.sleep(0.6)
    assert api.calls == []


async def test_anyone_but_the_allowed_users_is_told_not_theirs_and_changes_nothing(
    api: StandInSlack, home: Path
) -> None:
    (home / "settings.json").write_text(json.dumps({"slack": {"allowed_users": ["U0ADA"]}}))
    server = start_server("slack")
    try:
        asked = await server.ask(REQUEST, transport="slack")
        await api.until(lambda: api.channel_messages() != [], "posted the question")
        (message,) = api.channel_messages()
        await api.connected()
        stranger = api.person(OTHER_USER)
        stranger.presses(message, "SQLite")
        assert await stranger.told(1) == "Not yours to answer"
        stranger.presses(message, "Cancel")
        assert await stranger.told(2) == "Not yours to answer"
        assert asked.outcome is None
        assert message.edits == 0
        api.person().presses(message, "PostgreSQL")
        assert await asyncio.wait_for(asked.wait(), 5) == Answered(
            selected_ids=["pg"], via="slack", person="ada (U0ADA)"
        )
    finally:
        await close_transports(server.transports)


async def test_an_action_on_a_message_it_does_not_know_has_ended(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(REQUEST, transport="slack")
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    (message,) = api.channel_messages()
    await api.connected()
    person = api.person()
    person.acts(message, {"type": "button", "action_id": "o9", "block_id": "choices"})
    assert await person.told(1) == "This question has ended"
    person.acts(message, {"type": "button", "action_id": "zz", "block_id": "send"})
    assert await person.told(2) == "This question has ended"
    ghost = type(message)(message.channel, "1.000001", "an old message", message.blocks)
    person.presses(ghost, "SQLite")
    assert await person.told(3) == "This question has ended"
    assert asked.outcome is None


async def test_markup_in_agent_text_stays_literal(server: Server, api: StandInSlack) -> None:
    title = "*Drop* <!here> & <@U0BOB> tables :fire:"
    request = REQUEST | {
        "title": title,
        "prompt": "Run `rm -rf <dir>` & _then_ **go**: *now* ~x~ <!channel> @here :smile: > quote",
        "options": [
            {
                "id": "pg",
                "label": "*Post*gres & <co>",
                "recommended": True,
                "description": "_fast_ <https://evil.example|click> `x`",
            },
            {"id": "lite", "label": "SQLite"},
        ],
    }
    asked = await server.ask(request, transport="slack")
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    (message,) = api.channel_messages()
    await api.connected()
    header, prompt, options = message.reading[:3]
    assert header.text == title
    assert prompt.text == ("Run rm -rf <dir> & then go: now ~x~ <!channel> @here :smile: > quote")
    assert sorted(prompt.styled) == [
        ("bold", "go"),
        ("code", "rm -rf <dir>"),
        ("italic", "now"),
        ("italic", "then"),
    ], "the agent's markdown, and nothing else"
    assert options.text.startswith(
        "• *Post*gres & <co> (recommended) — _fast_ <https://evil.example|click> `x`"
    )
    assert options.styled == [("bold", "*Post*gres & <co>"), ("bold", "SQLite")]
    for reading in message.reading:
        assert (reading.mentions, reading.links, reading.emoji) == ([], [], []), reading
    assert message.buttons[0] == "*Post*gres & <co>"
    api.person().presses(message, "*Post*gres & <co>")
    await asyncio.wait_for(asked.wait(), 5)
    await api.until(lambda: message.buttons == [], "ended the message")
    ending = message.reading[-1]
    assert ending.text == "Answered in Slack by ada (U0ADA): *Post*gres & <co>"
    assert ending.styled == [("bold", ending.text)]
