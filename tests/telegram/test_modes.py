"""A question in Telegram, in each mode, played by the person through a stand-in Bot API: what the
message says and which buttons it has, what a press or a reply does, and what the answer means
(the contract's meaning, `selection.transport` "telegram", `answered_by` "person")."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram_api import CHAT_ID, StandInBotApi
from telegram_server import Server

from provide_choice import Answered, BatchAnswered, Cancelled
from provide_choice._contract._batch_response import respond
from provide_choice._question import PendingQuestion

OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "description": "robust", "recommended": True},
    {"id": "lite", "label": "SQLite"},
    {"id": "duck", "label": "DuckDB"},
]


def question(mode: str, **changes: Any) -> dict[str, Any]:
    request: dict[str, Any] = {
        "title": "Database",
        "prompt": "The app needs **storage** and none is configured.",
        "selection_mode": mode,
        "options": OPTIONS,
    }
    if mode == "text_input":
        del request["options"]
    return request | changes


async def ended(question: PendingQuestion) -> Any:
    return await asyncio.wait_for(question.wait(), 10)


async def test_a_single_choice_is_one_button_per_option_and_a_press_answers(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("single"))
    await api.until(lambda: len(api.bot_messages()) == 1, "sent the question")
    (message,) = api.bot_messages()
    assert message.parse_mode == "HTML"
    assert message.text.startswith("<b>Database</b>\n\nThe app needs <b>storage</b> and none")
    assert "• PostgreSQL (recommended) — robust\n• SQLite\n• DuckDB" in message.plain
    assert "Choose one" in message.plain
    assert "Time left: 4 min" in message.plain
    assert message.button_texts == ["PostgreSQL", "SQLite", "DuckDB", "Cancel"]
    person = api.person()
    press = person.presses(message, "SQLite")
    assert await person.toast(press) == "Sent"
    outcome = await ended(asked)
    assert outcome == Answered(selected_ids=["lite"], via="telegram")
    response = respond(asked.interaction.asked, outcome, asked.transport)
    assert (response.selection.transport, response.answered_by) == ("telegram", "person")
    assert response.selection.summary == "Selected: SQLite."
    await api.until(lambda: message.buttons == [], "took the buttons away")
    assert message.plain.endswith("Answered in Telegram: SQLite")


async def test_a_single_choice_sent_with_done_starts_on_its_default(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(
        question("single", single_submit_mode=False, default_selection_ids=["pg"])
    )
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (message,) = api.bot_messages()
    assert message.button_texts == ["◉ PostgreSQL", "○ SQLite", "○ DuckDB", "Done", "Cancel"]
    person = api.person()
    assert await person.toast(person.presses(message, "DuckDB")) == ""
    await api.until(lambda: message.button_texts[2] == "◉ DuckDB", "ticked DuckDB")
    assert message.button_texts[:2] == ["○ PostgreSQL", "○ SQLite"]
    assert [call.method for call in api.calls if "message_id" in call.params] == [
        "editMessageReplyMarkup"
    ], "a choice changes the buttons alone"
    person.presses(message, "Done")
    assert await ended(asked) == Answered(selected_ids=["duck"], via="telegram")


async def test_multi_toggles_and_done_refuses_a_count_outside_the_limits(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("multi", min_selections=2, max_selections=2))
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (message,) = api.bot_messages()
    assert message.button_texts == ["☐ PostgreSQL", "☐ SQLite", "☐ DuckDB", "Done", "Cancel"]
    assert "Choose exactly 2 options" in message.plain
    person = api.person()
    await person.toast(person.presses(message, "PostgreSQL"))
    assert message.button_texts[0] == "☑ PostgreSQL"
    assert await person.toast(person.presses(message, "Done")) == (
        "Choose exactly 2 options (1 chosen)"
    )
    for label in ("SQLite", "DuckDB"):
        await person.toast(person.presses(message, label))
    assert await person.toast(person.presses(message, "Done")) == (
        "Choose exactly 2 options (3 chosen)"
    )
    assert asked.outcome is None
    await person.toast(person.presses(message, "PostgreSQL"))
    assert message.button_texts[:3] == ["☐ PostgreSQL", "☑ SQLite", "☑ DuckDB"]
    assert await person.toast(person.presses(message, "Done")) == "Sent"
    assert await ended(asked) == Answered(selected_ids=["lite", "duck"], via="telegram")
    await api.until(lambda: message.buttons == [], "took the buttons away")
    assert message.plain.endswith("Answered in Telegram: SQLite, DuckDB")


async def test_text_asks_for_a_reply_with_force_reply_and_a_reply_to_either_answers(
    server: Server, api: StandInBotApi
) -> None:
    for sent, replied in ((2, 1), (4, 0)):
        asked = await server.ask(question("text_input", title=f"Name {replied}"))
        await api.until(lambda sent=sent: len(api.bot_messages()) == sent, "sent both messages")
        card, prompt = api.bot_messages()[-2:]
        assert card.button_texts == ["Cancel"], "no suggestion shown: nothing for Done to send"
        assert "Reply to the message below with your answer." in card.plain
        assert prompt.plain == "Reply to this message with your answer"
        assert prompt.reply_markup == {"force_reply": True}
        api.person().replies((card, prompt)[replied], "  orders-service  ")
        assert await ended(asked) == Answered(custom_input="orders-service", via="telegram")
        await api.until(lambda prompt=prompt: "ended" in prompt.plain, "ended the reply prompt")
        assert prompt.plain == "This question has ended"
        assert card.plain.endswith("Answered in Telegram: “orders-service”")


async def test_done_sends_the_suggested_answer_as_the_page_does(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("text_input", placeholder="orders"))
    await api.until(lambda: len(api.bot_messages()) == 2, "sent both messages")
    card, prompt = api.bot_messages()
    assert "Suggested answer: orders (Done sends it)" in card.plain
    assert prompt.reply_markup == {"force_reply": True, "input_field_placeholder": "orders"}
    assert card.button_texts == ["Done", "Cancel"]
    api.person().presses(card, "Done")
    assert await ended(asked) == Answered(
        custom_input="orders", placeholder_used=True, via="telegram"
    )


async def test_a_hidden_suggestion_is_never_sent(server: Server, api: StandInBotApi) -> None:
    asked = await server.ask(
        question("text_input", placeholder="orders"), placeholder_visible=False
    )
    await api.until(lambda: len(api.bot_messages()) == 2, "sent both messages")
    card, _prompt = api.bot_messages()
    assert "orders" not in card.plain
    assert card.button_texts == ["Cancel"]
    person = api.person()
    assert await person.toast(person.presses_data(card, "d")) == (
        "Reply to the message below with your answer"
    )
    assert asked.outcome is None


async def test_hybrid_takes_options_and_a_reply_together(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("hybrid", max_selections=2, placeholder="SQLite for now"))
    await api.until(lambda: len(api.bot_messages()) == 2, "sent both messages")
    card, prompt = api.bot_messages()
    assert card.button_texts == ["☐ PostgreSQL", "☐ SQLite", "☐ DuckDB", "Done", "Cancel"]
    assert "Or reply to the message below with your own answer." in card.plain
    person = api.person()
    await person.toast(person.presses(card, "PostgreSQL"))
    person.replies(prompt, "with a Redis cache")
    assert await ended(asked) == Answered(
        selected_ids=["pg"], custom_input="with a Redis cache", via="telegram"
    )


async def test_hybrid_done_with_nothing_chosen_sends_the_suggestion(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("hybrid", placeholder="SQLite for now"))
    await api.until(lambda: len(api.bot_messages()) == 2, "sent both messages")
    card, _prompt = api.bot_messages()
    assert card.button_texts == ["○ PostgreSQL", "○ SQLite", "○ DuckDB", "Done", "Cancel"]
    api.person().presses(card, "Done")
    assert await ended(asked) == Answered(
        custom_input="SQLite for now", placeholder_used=True, via="telegram"
    )


async def test_a_reply_to_a_question_of_buttons_only_is_refused_saying_so(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("multi"))
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    api.person().replies(card, "PostgreSQL please")
    await api.until(lambda: len(api.bot_messages()) == 2, "replied")
    assert api.bot_messages()[-1].plain == "This question takes no typed answer: use its buttons"
    assert asked.outcome is None


async def test_cancel_is_on_every_question_and_cancels_it(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("single"))
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    api.person().presses(card, "Cancel")
    assert await ended(asked) == Cancelled(via="telegram")
    response = respond(asked.interaction.asked, Cancelled(via="telegram"), asked.transport)
    assert response.selection.summary == "Cancelled by the person; nothing selected."
    await api.until(lambda: card.buttons == [], "took the buttons away")
    assert card.plain.endswith("Cancelled in Telegram")


BATCH = {
    "title": "Project set-up",
    "questions": [
        {"id": "db", "header": "Database", **question("single", title=None)},
        {
            "id": "features",
            "header": "Features",
            "prompt": "Which features?",
            "selection_mode": "multi",
            "default_selection_ids": ["auth"],
            "options": [
                {"id": "auth", "label": "Login", "recommended": True},
                {"id": "search", "label": "Search"},
            ],
        },
        {
            "id": "name",
            "header": "Name",
            "prompt": "Its name?",
            "selection_mode": "text_input",
            "placeholder": "orders",
        },
    ],
}
for _item in BATCH["questions"]:
    _item.pop("title", None)


async def test_a_batch_asks_one_message_after_another_and_answers_with_the_last(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(BATCH)
    await api.until(lambda: api.bot_messages() != [], "sent the first question")
    (first,) = api.bot_messages()
    assert first.plain.startswith("Project set-up\nDatabase · 1 of 3\n\nThe app needs")
    person = api.person()
    person.presses(first, "DuckDB")
    await api.until(lambda: len(api.bot_messages()) == 2, "sent the second question")
    assert first.buttons == []
    assert first.plain.endswith("✔ Answered: DuckDB")
    assert asked.kept == {"db": Answered(selected_ids=["duck"])}
    second = api.bot_messages()[1]
    assert second.plain.startswith("Project set-up\nFeatures · 2 of 3")
    assert await person.toast(person.presses_data(first, "o1")) == (
        "Already answered: the next question is below"
    )
    person.presses(second, "Search")
    person.presses(second, "Done")
    await api.until(lambda: len(api.bot_messages()) == 4, "sent the third question")
    third, prompt = api.bot_messages()[2:]
    person.replies(prompt, "billing")
    outcome = await ended(asked)
    assert outcome == BatchAnswered(
        answers={
            "db": Answered(selected_ids=["duck"]),
            "features": Answered(selected_ids=["auth", "search"]),
            "name": Answered(custom_input="billing"),
        },
        via="telegram",
    )
    response = respond(asked.interaction.asked, outcome, asked.transport)
    assert response.selection.transport == "telegram"
    await api.until(lambda: third.buttons == [], "ended the last question")
    assert third.plain.endswith(
        "Answered in Telegram: Database: DuckDB; Features: Login, Search; Name: “billing”"
    )


async def test_a_batch_cancelled_half_way_keeps_what_was_answered(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(BATCH, timeout_action="return_nothing")
    await api.until(lambda: api.bot_messages() != [], "sent the first question")
    person = api.person()
    person.presses(api.bot_messages()[0], "SQLite")
    await api.until(lambda: len(api.bot_messages()) == 2, "sent the second question")
    person.presses(api.bot_messages()[1], "Cancel")
    outcome = await ended(asked)
    assert isinstance(outcome, Cancelled)
    assert outcome.kept == {"db": Answered(selected_ids=["lite"])}
    response = respond(asked.interaction.asked, outcome, asked.transport)
    assert response.selection.summary.startswith(
        "Cancelled by the person after 1 of 3 questions. Database: Selected: SQLite."
    )


async def test_the_chat_is_the_linked_one_and_callback_data_holds_no_id_or_secret(
    server: Server, api: StandInBotApi
) -> None:
    asked = await server.ask(question("multi"))
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    assert card.chat_id == CHAT_ID
    for button in card.buttons:
        data = button["callback_data"]
        assert len(data.encode()) <= 64
        assert asked.id not in data
        assert api.token not in data
        assert len(data) <= 3, data
