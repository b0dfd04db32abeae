"""Every question asked elsewhere is also sent to the linked chat (the `telegram` alert channel),
the first answer anywhere wins, and the message says how the question ended wherever it ended;
only the linked chat answers, a press on an ended question changes nothing, and agent text stays
text."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from telegram_api import OTHER_CHAT_ID, StandInBotApi
from telegram_server import Server

from provide_choice import Answered, Cancelled, TimedOut

REQUEST: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


async def test_a_question_on_the_page_is_followed_in_telegram_and_answered_there(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.bot_messages() != [], "followed the question")
    (card,) = api.bot_messages()
    api.person().presses(card, "SQLite")
    outcome = await asyncio.wait_for(asked.wait(), 10)
    assert outcome == Answered(selected_ids=["lite"], via="telegram")
    await api.until(lambda: card.buttons == [], "ended the message")
    assert card.plain.endswith("Answered in Telegram: SQLite")


@pytest.mark.parametrize(
    ("transport", "where"),
    [
        ("web", "on the page"),
        ("terminal", "in the terminal"),
        ("elicitation", "in the conversation"),
    ],
)
async def test_answered_elsewhere_the_message_says_where_and_loses_its_buttons(
    server: Server, api: StandInBotApi, transport: str, where: str
) -> None:
    asked = await server.ask(REQUEST, transport=transport)
    await api.until(lambda: api.bot_messages() != [], "followed the question")
    (card,) = api.bot_messages()
    assert asked.finish(Answered(selected_ids=["pg"]))
    await api.until(lambda: card.buttons == [], "ended the message")
    assert card.plain.endswith(f"Answered {where}: PostgreSQL")
    person = api.person()
    assert await person.toast(person.presses_data(card, "o1")) == "This question has ended"
    assert asked.outcome == Answered(selected_ids=["pg"])


@pytest.mark.parametrize(
    ("ending", "said"),
    [
        (TimedOut(action="return_nothing"), "Timed out: no answer before the deadline"),
        (Cancelled(by="agent"), "Cancelled by the agent"),
        (Cancelled(), "Cancelled on the page"),
    ],
)
async def test_a_timeout_or_a_cancel_elsewhere_is_said_too(
    server: Server, api: StandInBotApi, ending: Any, said: str
) -> None:
    asked = await server.ask(REQUEST, transport="web")
    await api.until(lambda: api.bot_messages() != [], "followed the question")
    (card,) = api.bot_messages()
    asked.finish(ending)
    await api.until(lambda: card.buttons == [], "ended the message")
    assert card.plain.endswith(said)


async def test_the_deadline_ends_the_message_by_itself(server: Server, api: StandInBotApi) -> None:
    asked = await server.ask(REQUEST, seconds=1)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    assert isinstance(await asyncio.wait_for(asked.wait(), 5), TimedOut)
    await api.until(lambda: card.buttons == [], "ended the message")
    assert card.plain.endswith("Timed out: no answer before the deadline")


async def test_a_question_asked_in_telegram_is_sent_once(
    server: Server, api: StandInBotApi
) -> None:
    await server.ask(REQUEST)
    await asyncio.sleep(0.6)  # past the alerts' pause: a second copy would be there by now
    assert len(api.bot_messages()) == 1


async def test_with_its_channel_off_nothing_goes_to_telegram(
    server: Server, api: StandInBotApi
) -> None:
    await server.ask(REQUEST, transport="web", alerts={"telegram": False})
    await asyncio.sleep(0.6)
    assert api.calls == []


async def test_a_press_from_another_chat_is_not_theirs_and_changes_nothing(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(REQUEST)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    stranger = api.person(OTHER_CHAT_ID)
    assert await stranger.toast(stranger.presses(card, "SQLite")) == "Not yours to answer"
    stranger.says("/start")
    stranger.says("PostgreSQL!", reply_to=card.message_id)
    await api.until(lambda: api.pending_updates() == [], "read the stranger's messages")
    await asyncio.sleep(0.2)
    assert api.sent("sendMessage")[1:] == [], "nothing is said to another chat"
    assert asked.outcome is None
    person = api.person()
    person.presses(card, "PostgreSQL")
    assert await asyncio.wait_for(asked.wait(), 5) == Answered(selected_ids=["pg"], via="telegram")


async def test_a_reply_after_the_end_is_told_the_question_has_ended(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(REQUEST | {"selection_mode": "hybrid"})
    await api.until(lambda: len(api.bot_messages()) == 2, "sent the question")
    _card, prompt = api.bot_messages()
    asked.finish(Cancelled(by="agent"))
    await api.until(lambda: prompt.plain == "This question has ended", "ended the prompt")
    api.person().replies(prompt, "Redis")
    await api.until(lambda: len(api.bot_messages()) == 3, "answered the reply")
    assert api.bot_messages()[-1].plain == "This question has ended"
    assert api.bot_messages()[-1].reply_to is not None
    assert asked.outcome == Cancelled(by="agent")


async def test_a_press_on_a_message_it_no_longer_knows_has_ended(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(REQUEST)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    person = api.person()
    assert await person.toast(person.presses_data(card, "o99")) == "This question has ended"
    assert await person.toast(person.presses_data(card, "zz")) == "This question has ended"
    ghost = api.person().says("an old message of the bot's")
    assert await person.toast(person.presses_data(ghost, "o0")) == "This question has ended"
    assert asked.outcome is None


async def test_markup_in_agent_text_stays_literal(server: Server, api: StandInBotApi) -> None:
    title = "<b>Drop</b> & <a href='x'>tables</a> </blockquote>"
    request = REQUEST | {
        "title": title,
        "prompt": "Run `rm -rf <dir>` & <i>then</i> **go**",
        "options": [
            {
                "id": "pg",
                "label": "<u>Post</u>gres & co",
                "recommended": True,
                "description": "<script>alert(1)</script>",
            },
            {"id": "lite", "label": "SQLite"},
        ],
    }
    asked = await server.ask(request)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()  # the stand-in refuses any HTML Telegram would not parse
    assert card.plain.startswith(f"{title}\n\nRun rm -rf <dir> & <i>then</i> go")
    assert "• <u>Post</u>gres & co (recommended) — <script>alert(1)</script>" in card.plain
    assert card.button_texts[0] == "<u>Post</u>gres & co"
    api.person().presses(card, "<u>Post</u>gres & co")
    await asyncio.wait_for(asked.wait(), 5)
    await api.until(lambda: card.buttons == [], "ended the message")
    assert card.plain.endswith("Answered in Telegram: <u>Post</u>gres & co")


async def test_a_start_in_the_linked_chat_is_answered_and_a_stray_message_gets_a_hint(
    server: Server, api: StandInBotApi
) -> None:
    await server.ask(REQUEST)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    person = api.person()
    person.says("/start")
    await api.until(lambda: len(api.bot_messages()) == 2, "answered /start")
    assert api.bot_messages()[-1].plain.startswith("Linked: questions from provide-choice")
    person.says("PostgreSQL")
    await api.until(lambda: len(api.bot_messages()) == 3, "answered the stray message")
    assert api.bot_messages()[-1].plain.startswith("To answer in words, reply to the question")
