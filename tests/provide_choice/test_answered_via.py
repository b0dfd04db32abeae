"""An ending says where the person ended the question when that is not where it was asked (a
mirror such as Telegram answered a question on the page), and the response names that place."""

from __future__ import annotations

import pytest

from present_choices import ChoicesError
from provide_choice import (
    Answered,
    BatchAnswered,
    BatchRequest,
    Cancelled,
    parse_call,
    parse_request,
    validate_outcome,
)
from provide_choice._contract._batch_response import respond
from provide_choice._contract._meaning import read_reported
from provide_choice._contract._settings import InteractionSettings
from provide_choice.transports import answered_where

QUESTION = {
    "prompt": "Which one?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
REQUEST = parse_request({"title": "Database", **QUESTION})


def test_an_answer_through_another_surface_names_it_in_the_response() -> None:
    response = respond(REQUEST, Answered(selected_ids=["pg"], via="terminal"), "web")
    assert response.selection.transport == "terminal"
    assert response.answered_by == "person"
    assert respond(REQUEST, Answered(selected_ids=["pg"]), "web").selection.transport == "web"


def test_a_cancel_and_a_batch_through_another_surface_name_it_too() -> None:
    assert respond(REQUEST, Cancelled(via="terminal"), "web").selection.transport == "terminal"
    batch = parse_call({"title": "Set-up", "questions": [{"id": "db", **QUESTION}]})
    assert isinstance(batch, BatchRequest)
    answered = BatchAnswered(answers={"db": Answered(selected_ids=["lite"])}, via="terminal")
    response = respond(batch, answered, "web")
    assert response.selection.transport == "terminal"


def test_an_ending_without_via_is_written_as_before() -> None:
    assert "via" not in Answered(selected_ids=["pg"]).model_dump(mode="json")
    assert "via" not in Cancelled().model_dump_json()


def test_regression_a_posted_ending_cannot_claim_another_surface() -> None:
    with pytest.raises(ChoicesError) as refused:
        validate_outcome(REQUEST, {"kind": "answered", "selected_ids": ["pg"], "via": "terminal"})
    assert refused.value.problems == ["via is the server's to set: leave it out"]
    with pytest.raises(ChoicesError) as refused:
        read_reported({"kind": "cancelled", "via": "terminal"}, REQUEST, InteractionSettings())
    assert refused.value.problems == ["via is the server's to set: leave it out"]


def test_where_a_question_was_answered_reads_in_a_sentence() -> None:
    assert answered_where("terminal") == "in the terminal"
    assert answered_where("terminal_handoff") == "in the terminal"
    assert answered_where("elicitation") == "in the conversation"
    assert answered_where("web", at_an_address=True) == "on the page"
    assert answered_where("web") == "in the browser"
    assert answered_where("gone-plugin") == "in gone-plugin"
