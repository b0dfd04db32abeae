"""What an answer means (`_contract._meaning`): the one rule every surface's report goes through.

The surfaces themselves are run against these rules end to end in `e2e/conformance/`; here the
rule is pinned fast, case by case, with the surfaces' own readers where they translate facts."""

from __future__ import annotations

from typing import Any

import pytest

from present_choices import ChoicesError
from provide_choice import Answered, InteractionSettings, parse_request
from provide_choice._contract._meaning import (
    Submission,
    answer_from,
    check_submission,
    placeholder_rule,
    read_reported,
)
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._transports._elicitation._form import read_answer

SUGGESTION = "Use SQLite for now"
OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "recommended": True},
    {"id": "lite", "label": "SQLite"},
]
SHOWN = InteractionSettings()
HIDDEN = InteractionSettings(placeholder_visible=False)


def question(mode: str, **changes: Any) -> ProvideChoiceRequest:
    request: dict[str, Any] = {"title": "Database", "prompt": "Which one?", "selection_mode": mode}
    if mode != "text_input":
        request["options"] = OPTIONS
    return parse_request(request | changes)


TEXT = question("text_input", placeholder=SUGGESTION)
HYBRID = question("hybrid", placeholder=SUGGESTION)
SUGGESTED = Answered(custom_input=SUGGESTION, placeholder_used=True)


@pytest.mark.parametrize(
    ("request_", "settings", "submission", "answer"),
    [
        pytest.param(TEXT, SHOWN, Submission(placeholder_shown=True), SUGGESTED, id="text-empty"),
        pytest.param(
            TEXT,
            SHOWN,
            Submission(custom_input=f"  {SUGGESTION} "),
            Answered(custom_input=SUGGESTION),
            id="text-typed-equal-to-the-suggestion-is-own-text",
        ),
        pytest.param(HYBRID, SHOWN, Submission(placeholder_shown=True), SUGGESTED, id="hybrid"),
        pytest.param(
            HYBRID,
            SHOWN,
            Submission(selected_ids=["lite"], placeholder_shown=True),
            Answered(selected_ids=["lite"]),
            id="hybrid-an-option-chosen-is-the-answer",
        ),
        pytest.param(
            HYBRID,
            HIDDEN,
            Submission(),
            Answered(),
            id="hybrid-hidden-suggestion-is-nothing-selected",
        ),
        pytest.param(
            question("hybrid", min_selections=1, placeholder=SUGGESTION),
            SHOWN,
            Submission(placeholder_shown=True),
            SUGGESTED,
            id="hybrid-the-suggestion-waives-the-minimum",
        ),
    ],
)
def test_what_a_submission_means(
    request_: ProvideChoiceRequest,
    settings: InteractionSettings,
    submission: Submission,
    answer: Answered,
) -> None:
    assert answer_from(submission, request_, settings) == answer


def test_the_rule_the_page_reads_is_the_rule_applied() -> None:
    assert placeholder_rule(TEXT, SHOWN) == "always"
    assert placeholder_rule(HYBRID, SHOWN) == "when_nothing_chosen"
    assert placeholder_rule(HYBRID, HIDDEN) is None
    assert placeholder_rule(question("single"), SHOWN) is None


@pytest.mark.parametrize(
    ("request_", "settings", "submission", "problems"),
    [
        (TEXT, SHOWN, Submission(), ["custom_input is required for text_input"]),
        (
            TEXT,
            HIDDEN,
            Submission(placeholder_shown=True),
            [
                "custom_input is required for text_input",
                "placeholder_shown is true but the suggested answer is hidden",
            ],
        ),
        (
            question("hybrid", min_selections=2, max_selections=2),
            SHOWN,
            Submission(),
            ["selected_ids must hold 2 ids, got 0"],
        ),
        (
            HYBRID,
            InteractionSettings(annotations=False),
            Submission(custom_input="Redis", global_annotation="soon"),
            ["notes are switched off in the settings"],
        ),
    ],
)
def test_every_problem_of_a_submission_is_listed(
    request_: ProvideChoiceRequest,
    settings: InteractionSettings,
    submission: Submission,
    problems: list[str],
) -> None:
    assert check_submission(submission, request_, settings) == problems
    with pytest.raises(ChoicesError):
        answer_from(submission, request_, settings)


def test_a_posted_report_is_read_as_what_it_means() -> None:
    posted = {"kind": "answered", "placeholder_shown": True}
    assert read_reported(posted, HYBRID, SHOWN) == SUGGESTED
    with pytest.raises(ChoicesError) as error:
        read_reported({"kind": "cancelled", "by": "agent"}, HYBRID, SHOWN)
    assert error.value.problems == ["by must be 'person': only the server cancels for the agent"]


def test_regression_the_dialogs_kept_default_beside_a_chosen_option_is_not_the_placeholder() -> (
    None
):
    # The client's form sent its pre-filled default with the option, and the answer was the
    # placeholder (custom_input) beside it; the option alone is what the person chose.
    content = {"choice": "lite", "own_answer": SUGGESTION}
    assert read_answer(HYBRID, SHOWN, content) == Answered(selected_ids=["lite"])


def test_the_dialogs_kept_default_with_nothing_chosen_is_the_placeholder() -> None:
    assert read_answer(HYBRID, SHOWN, {"own_answer": SUGGESTION}) == SUGGESTED
    assert read_answer(TEXT, SHOWN, {"answer": SUGGESTION}) == SUGGESTED
