"""One response shape for every transport: `normalize()` orders, filters and summarizes outcomes, and
refuses outcomes the request does not allow (what the hand-off bridge will answer 422 to)."""

from __future__ import annotations

from typing import Any

import pytest

from present_choices import ChoicesError
from provide_choice import (
    Answered,
    Cancelled,
    PendingLaunch,
    ProvideChoiceRequest,
    TimedOut,
    normalize,
    parse_request,
    validate_outcome,
)


def make_request(mode: str = "multi", **changes: Any) -> ProvideChoiceRequest:
    options = [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
        {"id": "duck", "label": "DuckDB"},
    ]
    data: dict[str, Any] = {
        "title": "Database",
        "prompt": "Which databases should the app support?",
        "selection_mode": mode,
        "options": None if mode == "text_input" else options,
    }
    return parse_request(
        {key: value for key, value in (data | changes).items() if value is not None}
    )


def test_selected_ids_come_back_in_option_order() -> None:
    response = normalize(make_request(), Answered(selected_ids=["duck", "pg"]), "terminal")
    assert response.action_status == "selected"
    assert response.selection.selected_ids == ["pg", "duck"]
    assert response.selection.summary == "Selected: PostgreSQL, DuckDB."
    assert response.selection.transport == "terminal"


def test_response_json_has_the_documented_shape() -> None:
    response = normalize(make_request("single"), Answered(selected_ids=["lite"]), "web")
    assert response.model_dump(mode="json") == {
        "action_status": "selected",
        "answered_by": "person",
        "selection": {
            "selected_ids": ["lite"],
            "custom_input": None,
            "option_annotations": {},
            "global_annotation": None,
            "placeholder_used": False,
            "transport": "web",
            "session_id": None,
            "url": None,
            "summary": "Selected: SQLite.",
        },
    }


def test_text_input_answer_is_custom_input() -> None:
    response = normalize(make_request("text_input"), Answered(custom_input="MariaDB"), "terminal")
    assert response.action_status == "custom_input"
    assert response.selection.custom_input == "MariaDB"
    assert response.selection.selected_ids == []
    assert response.selection.summary == 'Answered in their own words: "MariaDB".'


def test_accepted_placeholder_is_marked_and_said_so() -> None:
    request = make_request("text_input", placeholder="PostgreSQL 16")
    outcome = Answered(custom_input="PostgreSQL 16", placeholder_used=True)
    response = normalize(request, outcome, "terminal")
    assert response.selection.placeholder_used
    assert response.selection.summary == 'Accepted the suggested answer: "PostgreSQL 16".'


def test_hybrid_is_selected_when_nothing_was_typed_and_custom_input_when_it_was() -> None:
    request = make_request("hybrid")
    assert normalize(request, Answered(selected_ids=["pg"]), "terminal").action_status == "selected"
    typed = normalize(request, Answered(custom_input="Redis"), "terminal")
    assert typed.action_status == "custom_input"
    assert typed.selection.selected_ids == []


def test_notes_are_kept_only_for_options_that_got_one() -> None:
    outcome = Answered(
        selected_ids=["pg"],
        option_annotations={"duck": "maybe later", "lite": "  ", "pg": " needs a server "},
        global_annotation="  ",
    )
    selection = normalize(make_request(), outcome, "terminal").selection
    assert selection.option_annotations == {"pg": "needs a server", "duck": "maybe later"}
    assert selection.global_annotation is None
    assert selection.summary == "Selected: PostgreSQL (with notes on PostgreSQL, DuckDB)."


def test_overall_note_is_kept_and_mentioned() -> None:
    outcome = Answered(selected_ids=["pg"], global_annotation="ask ops first")
    selection = normalize(make_request(), outcome, "terminal").selection
    assert selection.global_annotation == "ask ops first"
    assert selection.summary == "Selected: PostgreSQL (with an overall note)."


def test_cancel_returns_nothing() -> None:
    response = normalize(make_request(default_selection_ids=["pg"]), Cancelled(), "terminal")
    assert response.action_status == "cancelled"
    assert response.selection.selected_ids == []
    assert response.selection.summary == "Cancelled by the person; nothing selected."


def test_timeout_returning_defaults_never_passes_them_off_as_the_persons_choice() -> None:
    request = make_request(default_selection_ids=["lite", "pg"])
    response = normalize(request, TimedOut(action="return_defaults"), "terminal")
    assert response.action_status == "timeout"
    assert response.selection.selected_ids == ["pg", "lite"]
    assert response.selection.summary == (
        "No answer before the deadline; defaults returned, not chosen by the person: "
        "PostgreSQL, SQLite."
    )


@pytest.mark.parametrize(
    ("defaults", "action", "summary"),
    [
        (
            None,
            "return_defaults",
            "No answer before the deadline; no defaults to return, nothing selected.",
        ),
        (["pg"], "return_nothing", "No answer before the deadline; nothing selected."),
    ],
)
def test_timeout_without_defaults_to_return_selects_nothing(
    defaults: list[str] | None, action: Any, summary: str
) -> None:
    response = normalize(
        make_request(default_selection_ids=defaults), TimedOut(action=action), "terminal"
    )
    assert response.selection.selected_ids == []
    assert response.selection.summary == summary


def test_pending_launch_carries_the_session_and_the_command() -> None:
    command = "choice-terminal --session s1 --url http://127.0.0.1:5000"
    outcome = PendingLaunch(session_id="s1", url="http://127.0.0.1:5000", command=command)
    response = normalize(make_request(), outcome, "terminal_handoff")
    assert response.action_status == "pending_terminal_launch"
    assert (response.selection.session_id, response.selection.url) == (
        "s1",
        "http://127.0.0.1:5000",
    )
    assert response.selection.summary == command


def test_long_own_answers_are_shortened_to_one_summary_line() -> None:
    text = "line one\nline two " + "x" * 200
    summary = normalize(
        make_request("text_input"), Answered(custom_input=text), "terminal"
    ).selection.summary
    assert "\n" not in summary
    assert len(summary) < 120
    assert summary.endswith('…".')


@pytest.mark.parametrize(
    ("mode", "outcome", "problem"),
    [
        (
            "multi",
            Answered(selected_ids=["pg", "mongo"]),
            "selected_ids: 'mongo' is not an option id",
        ),
        ("multi", Answered(selected_ids=[]), "selected_ids must hold 1 to 3 ids, got 0"),
        ("single", Answered(selected_ids=["pg", "lite"]), "selected_ids must hold 1 id, got 2"),
        ("multi", Answered(selected_ids=["pg", "pg"]), "selected_ids must not repeat an id"),
        (
            "single",
            Answered(selected_ids=["pg"], custom_input="x"),
            "custom_input is not allowed for single",
        ),
        ("text_input", Answered(), "custom_input is required for text_input"),
        ("hybrid", Answered(custom_input=" "), "custom_input must not be empty"),
        (
            "text_input",
            Answered(custom_input="x", placeholder_used=True),
            "placeholder_used is true",
        ),
        (
            "multi",
            Answered(selected_ids=["pg"], option_annotations={"x": "no"}),
            "option_annotations: 'x' is not an option id",
        ),
    ],
)
def test_normalize_refuses_an_outcome_the_request_does_not_allow(
    mode: str, outcome: Answered, problem: str
) -> None:
    with pytest.raises(ChoicesError, match=problem):
        normalize(make_request(mode), outcome, "terminal")


def test_notes_are_refused_when_the_request_allows_none() -> None:
    request = make_request(allow_annotations=False)
    with pytest.raises(ChoicesError, match="allow_annotations false"):
        normalize(request, Answered(selected_ids=["pg"], global_annotation="hm"), "terminal")


def test_hybrid_own_answer_waives_the_minimum_but_not_the_maximum() -> None:
    request = make_request("hybrid", min_selections=1, max_selections=1)
    assert (
        normalize(request, Answered(custom_input="Redis"), "terminal").action_status
        == "custom_input"
    )
    with pytest.raises(ChoicesError, match="selected_ids must hold 0 to 1 ids, got 2"):
        normalize(request, Answered(selected_ids=["pg", "lite"], custom_input="Redis"), "terminal")


def test_validate_outcome_turns_posted_json_into_an_outcome() -> None:
    posted = {"kind": "answered", "selected_ids": ["lite"], "option_annotations": {"lite": "ok"}}
    assert validate_outcome(make_request(), posted) == Answered(
        selected_ids=["lite"], option_annotations={"lite": "ok"}
    )
    assert validate_outcome(
        make_request(), {"kind": "timeout", "action": "return_nothing"}
    ) == TimedOut(action="return_nothing")


def test_validate_outcome_lists_every_problem_without_listing_option_fields_for_outcomes() -> None:
    with pytest.raises(ChoicesError) as raised:
        validate_outcome(make_request(), {"kind": "answered", "selected_ids": "pg", "mood": "good"})
    assert raised.value.problems == [
        "answered.selected_ids must be a list, got a string",
        "answered.mood is not an allowed field",
    ]
