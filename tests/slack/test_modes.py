"""A question in Slack, in each mode, played by a person through a stand-in Slack: what the
message's blocks say and hold, what a press, a tick or Submit does, and what the answer means (the
contract's meaning, `selection.transport` "slack", who answered kept as `person`)."""

from __future__ import annotations

import asyncio
from typing import Any

from slack_api import CHANNEL, Message, StandInSlack
from telegram_server import Server

from provide_choice import Answered, BatchAnswered, Cancelled
from provide_choice._contract._batch_response import respond
from provide_choice._question import PendingQuestion

ADA = "ada (U0ADA)"
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


async def posted(api: StandInSlack, count: int = 1) -> Message:
    """The `count`-th message the app posted, once it is there."""
    await api.until(lambda: len(api.channel_messages()) >= count, f"posted message {count}")
    return api.channel_messages()[count - 1]


async def test_a_single_choice_is_one_button_per_option_and_a_press_answers(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(question("single"), transport="slack")
    message = await posted(api)
    await api.connected()
    header, prompt, options, *rules = message.reading[:5]
    assert header.text == "Database"
    assert prompt.text == "The app needs storage and none is configured."
    assert ("bold", "storage") in prompt.styled
    assert options.text == "• PostgreSQL (recommended) — robust\n• SQLite\n• DuckDB"
    assert [rule.text for rule in rules] == ["Choose one", "Time left: 4 min"]
    assert message.buttons == ["PostgreSQL", "SQLite", "DuckDB", "Cancel"]
    assert message.elements[0]["style"] == "primary", "the recommended option stands out"
    api.person().presses(message, "SQLite")
    outcome = await ended(asked)
    assert outcome == Answered(selected_ids=["lite"], via="slack", person=ADA)
    response = respond(asked.interaction.asked, outcome, asked.transport)
    assert (response.selection.transport, response.answered_by) == ("slack", "person")
    assert response.selection.summary == "Selected: SQLite."
    assert ADA not in response.model_dump_json(), "who answered is the history's, not the agent's"
    await api.until(lambda: message.buttons == [], "took the buttons away")
    assert message.elements == []
    assert message.plain.endswith("Answered in Slack by ada (U0ADA): SQLite")
    assert api.ephemerals == [], "an answer that went through needs no word"


async def test_a_single_choice_sent_with_submit_is_radio_buttons_starting_on_its_default(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(
        question("single", single_submit_mode=False, default_selection_ids=["pg"]),
        transport="slack",
    )
    message = await posted(api)
    await api.connected()
    assert message.choices("radio_buttons") == ["PostgreSQL", "SQLite", "DuckDB"]
    assert message.element("radio_buttons")["initial_option"]["value"] == "o0"
    assert message.buttons == ["Submit", "Cancel"]
    person = api.person()
    person.picks(message, "DuckDB")
    person.presses(message, "Submit")
    assert await ended(asked) == Answered(selected_ids=["duck"], via="slack", person=ADA)


async def test_multi_is_checkboxes_and_submit_refuses_a_count_outside_the_limits_ephemerally(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(
        question("multi", min_selections=2, max_selections=2), transport="slack"
    )
    message = await posted(api)
    await api.connected()
    assert message.choices("checkboxes") == ["PostgreSQL", "SQLite", "DuckDB"]
    assert "initial_options" not in message.element("checkboxes")
    assert "Choose exactly 2 options" in message.plain
    person = api.person()
    person.ticks(message, "PostgreSQL")
    person.presses(message, "Submit")
    assert await person.told(1) == "Choose exactly 2 options (1 chosen)"
    for label in ("SQLite", "DuckDB"):
        person.ticks(message, label)
    person.presses(message, "Submit")
    assert await person.told(2) == "Choose exactly 2 options (3 chosen)"
    assert asked.outcome is None
    assert api.ephemerals[0].channel == CHANNEL
    person.ticks(message, "PostgreSQL")
    person.presses(message, "Submit")
    assert await ended(asked) == Answered(selected_ids=["lite", "duck"], via="slack", person=ADA)
    await api.until(lambda: message.elements == [], "took the elements away")
    assert message.plain.endswith("Answered in Slack by ada (U0ADA): SQLite, DuckDB")


async def test_text_input_is_a_text_field_and_submit(server: Server, api: StandInSlack) -> None:
    asked = await server.ask(question("text_input"), transport="slack")
    message = await posted(api)
    await api.connected()
    assert message.buttons == ["Submit", "Cancel"]
    field = message.element("plain_text_input")
    assert "placeholder" not in field, "no suggestion shown"
    person = api.person()
    person.presses(message, "Submit")
    assert await person.told(1) == "Type your answer in the box first"
    person.types(message, "  orders-service  ")
    person.presses(message, "Submit")
    assert await ended(asked) == Answered(custom_input="orders-service", via="slack", person=ADA)
    await api.until(lambda: message.elements == [], "took the field away")
    assert message.plain.endswith("Answered in Slack by ada (U0ADA): “orders-service”")


async def test_submit_sends_the_suggested_answer_as_the_page_does(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(question("text_input", placeholder="orders"), transport="slack")
    message = await posted(api)
    await api.connected()
    assert "Suggested answer: orders (Submit sends it)" in message.plain
    assert message.element("plain_text_input")["placeholder"]["text"] == "orders"
    api.person().presses(message, "Submit")
    assert await ended(asked) == Answered(
        custom_input="orders", placeholder_used=True, via="slack", person=ADA
    )


async def test_a_hidden_suggestion_is_never_sent(server: Server, api: StandInSlack) -> None:
    asked = await server.ask(
        question("text_input", placeholder="orders"), transport="slack", placeholder_visible=False
    )
    message = await posted(api)
    await api.connected()
    assert "orders" not in message.plain
    assert "placeholder" not in message.element("plain_text_input")
    person = api.person()
    person.presses(message, "Submit")
    assert await person.told(1) == "Type your answer in the box first"
    assert asked.outcome is None


async def test_hybrid_takes_options_and_text_together(server: Server, api: StandInSlack) -> None:
    asked = await server.ask(
        question("hybrid", max_selections=2, placeholder="SQLite for now"), transport="slack"
    )
    message = await posted(api)
    await api.connected()
    assert message.choices("checkboxes") == ["PostgreSQL", "SQLite", "DuckDB"]
    assert message.reading[-3].text == "Or your own answer"
    person = api.person()
    person.ticks(message, "PostgreSQL")
    person.types(message, "with a Redis cache")
    person.presses(message, "Submit")
    assert await ended(asked) == Answered(
        selected_ids=["pg"], custom_input="with a Redis cache", via="slack", person=ADA
    )


async def test_hybrid_submit_with_nothing_chosen_sends_the_suggestion(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(question("hybrid", placeholder="SQLite for now"), transport="slack")
    message = await posted(api)
    await api.connected()
    assert message.choices("radio_buttons") == ["PostgreSQL", "SQLite", "DuckDB"]
    api.person().presses(message, "Submit")
    assert await ended(asked) == Answered(
        custom_input="SQLite for now", placeholder_used=True, via="slack", person=ADA
    )


async def test_cancel_is_on_every_question_and_cancels_it(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(question("single"), transport="slack")
    message = await posted(api)
    await api.connected()
    api.person().presses(message, "Cancel")
    outcome = await ended(asked)
    assert outcome == Cancelled(via="slack", person=ADA)
    response = respond(asked.interaction.asked, outcome, asked.transport)
    assert response.selection.summary == "Cancelled by the person; nothing selected."
    await api.until(lambda: message.buttons == [], "took the buttons away")
    assert message.plain.endswith("Cancelled in Slack by ada (U0ADA)")


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
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(BATCH, transport="slack")
    first = await posted(api)
    await api.connected()
    assert first.plain.startswith("Project set-up\nDatabase · 1 of 3\nThe app needs")
    person = api.person()
    person.presses(first, "DuckDB")
    second = await posted(api, 2)
    assert first.elements == []
    assert first.plain.endswith("✔ Answered: DuckDB")
    assert asked.kept == {"db": Answered(selected_ids=["duck"])}
    assert second.plain.startswith("Project set-up\nFeatures · 2 of 3")
    stale = {"type": "button", "action_id": "cancel", "block_id": "send", "value": "cancel"}
    person.acts(first, stale)  # from a client that still shows the old message's buttons
    assert await person.told(1) == "Already answered: the next question is below"
    assert [o["value"] for o in second.element("checkboxes")["initial_options"]] == ["o0"]
    person.ticks(second, "Search")
    person.presses(second, "Submit")
    third = await posted(api, 3)
    person.types(third, "billing")
    person.presses(third, "Submit")
    outcome = await ended(asked)
    assert outcome == BatchAnswered(
        answers={
            "db": Answered(selected_ids=["duck"]),
            "features": Answered(selected_ids=["auth", "search"]),
            "name": Answered(custom_input="billing"),
        },
        via="slack",
        person=ADA,
    )
    assert respond(asked.interaction.asked, outcome, asked.transport).selection.transport == "slack"
    await api.until(lambda: third.elements == [], "ended the last question")
    assert third.plain.endswith(
        "Answered in Slack by ada (U0ADA): Database: DuckDB; Features: Login, Search; "
        "Name: “billing”"
    )


async def test_a_batch_cancelled_half_way_keeps_what_was_answered(
    server: Server, api: StandInSlack
) -> None:
    asked = await server.ask(BATCH, transport="slack", timeout_action="return_nothing")
    person = api.person()
    first = await posted(api)
    await api.connected()
    person.presses(first, "SQLite")
    person.presses(await posted(api, 2), "Cancel")
    outcome = await ended(asked)
    assert isinstance(outcome, Cancelled)
    assert outcome.kept == {"db": Answered(selected_ids=["lite"])}


async def test_element_ids_hold_no_question_id_or_secret(server: Server, api: StandInSlack) -> None:
    asked = await server.ask(question("hybrid"), transport="slack")
    message = await posted(api)
    for element in message.elements:
        shown = repr(element)
        assert asked.id not in shown
        assert api.bot_token not in shown
        assert len(element["action_id"]) <= 6, element["action_id"]
