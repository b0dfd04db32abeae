"""The shared option model: what a valid question with options is."""

import pytest
from pydantic import ValidationError

from present_choices import ChoiceOption, ChoicePrompt, ChoicesError, describe_errors, field_path


def option(n: int) -> dict[str, str]:
    return {"label": f"Option {n}", "value": f"v{n}"}


def test_trims_question_label_and_value() -> None:
    prompt = ChoicePrompt.model_validate(
        {"question": "  Which?  ", "options": [{"label": " A ", "value": " a "}, option(2)]}
    )
    assert prompt.question == "Which?"
    assert prompt.options[0] == ChoiceOption(label="A", value="a")


@pytest.mark.parametrize("count", [0, 1, 5, 9])
def test_option_count_error_states_range_and_count(count: int) -> None:
    with pytest.raises(ValidationError) as caught:
        ChoicePrompt.model_validate({"question": "Q", "options": [option(n) for n in range(count)]})
    assert describe_errors(caught.value) == [f"options must have 2 to 4 items, got {count}"]


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_to_four_options_are_valid(count: int) -> None:
    prompt = ChoicePrompt.model_validate(
        {"question": "Q", "options": [option(n) for n in range(count)]}
    )
    assert len(prompt.options) == count


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"question": " ", "options": [option(1), option(2)]}, "question must not be empty"),
        ({"options": [option(1), option(2)]}, "question is required"),
        (
            {"question": "Q", "options": [{"label": "\t", "value": "a"}, option(2)]},
            "options[0].label must not be empty",
        ),
        (
            {"question": "Q", "options": [option(1), {"label": "B", "value": ""}]},
            "options[1].value must not be empty",
        ),
        (
            {"question": "Q", "options": [option(1), {"label": "B"}]},
            "options[1].value is required",
        ),
        (
            {"question": "Q", "options": [option(1), {"label": "B", "value": 3}]},
            "options[1].value must be a string, got a number",
        ),
        (
            {"question": "Q", "options": [option(1), {**option(1), "label": "Other"}]},
            "options values must be unique, repeated: 'v1'",
        ),
        (
            {"question": "Q" * 501, "options": [option(1), option(2)]},
            "question must be at most 500 characters, got 501",
        ),
        (
            {"question": "Q", "options": [option(1), option(2)], "colour": "red"},
            "colour is not an allowed field",
        ),
        ({"question": "Q", "options": "a, b"}, "options must be a list, got a string"),
    ],
)
def test_invalid_prompt_names_the_field(data: dict[str, object], problem: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ChoicePrompt.model_validate(data)
    assert problem in describe_errors(caught.value)


def test_blank_context_becomes_none() -> None:
    prompt = ChoicePrompt.model_validate(
        {"question": "Q", "options": [option(1), option(2)], "context": "   "}
    )
    assert prompt.context is None


def test_choices_error_is_a_value_error_listing_every_problem() -> None:
    error = ChoicesError(["a is required", "b must not be empty"])
    assert isinstance(error, ValueError)
    assert str(error) == "a is required; b must not be empty"
    assert error.problems == ["a is required", "b must not be empty"]


def test_field_path_formats_nested_locations() -> None:
    assert field_path(("options", 1, "label")) == "options[1].label"
    assert field_path(()) == ""


def test_unknown_fields_list_the_allowed_ones_when_the_model_is_given() -> None:
    data = {"question": "Q", "options": [{**option(1), "colour": "red"}, option(2)], "x": 1}
    with pytest.raises(ValidationError) as caught:
        ChoicePrompt.model_validate(data)
    assert describe_errors(caught.value, ChoicePrompt) == [
        "options[0].colour is not an allowed field; allowed: label, value",
        "x is not an allowed field; allowed: question, options, context",
    ]
