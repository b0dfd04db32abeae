"""`RecommendedTransport`, the public stand-in for a person who always takes the advice: asked
through the MCP SDK's in-memory client, as an agent's test would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

from provide_choice import create_server
from provide_choice.transports import RecommendedTransport, TransportKind, register_transport

OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "recommended": True},
    {"id": "lite", "label": "SQLite", "recommended": True},
    {"id": "duck", "label": "DuckDB"},
]


@pytest.fixture(autouse=True)
def recommended() -> Iterator[None]:
    unregister = register_transport(RecommendedTransport)
    yield
    unregister()


async def ask(arguments: dict[str, Any], transport: str = "recommended") -> dict[str, Any]:
    async with Client(create_server()) as client:
        result = await client.call_tool("provide_choice", arguments | {"transport": transport})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def question(mode: str, **fields: Any) -> dict[str, Any]:
    return {"title": "Database", "prompt": "Which one?", "selection_mode": mode} | fields


async def test_a_single_choice_takes_the_first_recommended_option() -> None:
    response = await ask(question("single", options=OPTIONS))
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["pg"]
    assert response["selection"]["transport"] == "recommended"


async def test_a_multi_choice_takes_every_recommended_option_within_its_limits() -> None:
    every = await ask(question("multi", options=OPTIONS))
    assert every["selection"]["selected_ids"] == ["pg", "lite"]
    at_most_one = await ask(question("multi", options=OPTIONS, max_selections=1))
    assert at_most_one["selection"]["selected_ids"] == ["pg"]
    at_least_three = await ask(question("multi", options=OPTIONS, min_selections=3))
    assert at_least_three["selection"]["selected_ids"] == ["pg", "lite", "duck"]


async def test_a_text_question_takes_the_suggested_answer() -> None:
    response = await ask(question("text_input", placeholder="orders"))
    assert response["action_status"] == "custom_input"
    assert response["selection"]["custom_input"] == "orders"
    assert response["selection"]["placeholder_used"] is True


async def test_a_text_question_with_nothing_suggested_is_cancelled_saying_why() -> None:
    response = await ask(question("text_input"))
    assert response["action_status"] == "cancelled"
    assert response["selection"]["summary"].startswith(
        "RecommendedTransport has no answer to recommend (custom_input"
    )


class Typing(RecommendedTransport):
    """A stand-in that types an answer where nothing is suggested."""

    kind = TransportKind("typing", "A stand-in who types", preference="A stand-in who types")
    text_answer = "billing"


async def test_a_subclass_types_its_text_answer() -> None:
    unregister = register_transport(Typing)
    try:
        response = await ask(question("hybrid", options=OPTIONS[2:] + OPTIONS[:1]), "typing")
    finally:
        unregister()
    assert response["selection"]["selected_ids"] == ["pg"]
    assert response["selection"]["custom_input"] == "billing"


async def test_every_question_of_a_batch_is_answered() -> None:
    batch = {
        "title": "Project set-up",
        "questions": [
            {"id": "db", "prompt": "Which one?", "selection_mode": "single", "options": OPTIONS},
            {
                "id": "name",
                "prompt": "Its name?",
                "selection_mode": "text_input",
                "placeholder": "orders",
            },
        ],
    }
    response = await ask(batch)
    assert response["action_status"] == "selected"
    answers = {answer["id"]: answer for answer in response["answers"]}
    assert answers["db"]["selected_ids"] == ["pg"]
    assert answers["name"]["custom_input"] == "orders"
