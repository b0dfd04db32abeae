"""The `present_choices` tool: instructions with a ready-to-paste fence, and clear errors."""

import json
import re

import pytest

from present_choices import (
    ChoiceOption,
    ChoicePrompt,
    ChoicesSegment,
    parameters_schema,
    present_choices,
    split_message,
    tool_schema,
)

FENCE = re.compile(r"```choices\n(.*?)\n```", re.DOTALL)


def test_returns_instructions_with_the_exact_block() -> None:
    text = present_choices(
        "Which database?",
        [{"label": "PostgreSQL", "value": "postgres"}, {"label": "SQLite", "value": "sqlite"}],
        context="The app runs on one machine.",
    )
    assert "reply" in text
    block = FENCE.search(text)
    assert block is not None
    assert json.loads(block.group(1)) == {
        "question": "Which database?",
        "options": [
            {"label": "PostgreSQL", "value": "postgres"},
            {"label": "SQLite", "value": "sqlite"},
        ],
        "context": "The app runs on one machine.",
    }


def test_context_is_left_out_when_not_given() -> None:
    block = FENCE.search(present_choices("Q?", ["a", "b"]))
    assert block is not None
    assert "context" not in json.loads(block.group(1))


def test_accepts_models_dicts_and_strings() -> None:
    text = present_choices(
        "Q?", [ChoiceOption(label="A", value="a"), {"label": "B", "value": "b"}, "C"]
    )
    (segment,) = [s for s in split_message(text) if isinstance(s, ChoicesSegment)]
    assert [o.value for o in segment.prompt.options] == ["a", "b", "C"]


@pytest.mark.parametrize("count", [0, 1, 5, 6])
def test_wrong_option_count_raises_value_error_with_range_and_count(count: int) -> None:
    with pytest.raises(ValueError, match=rf"2 to 4 .*got {count}"):
        present_choices("Q?", [f"option {n}" for n in range(count)])


@pytest.mark.parametrize(
    ("question", "options", "context", "field"),
    [
        ("", ["a", "b"], None, "question"),
        ("Q?", ["a", " "], None, "options[1].label"),
        ("Q?", ["a", "a"], None, "options"),
        ("Q?", ["a", {"label": "B", "value": ["b"]}], None, "options[1].value"),
        ("Q?", ["a", "b"], "x" * 2001, "context"),
    ],
)
def test_other_invalid_input_raises_value_error_naming_the_field(
    question: str, options: list[object], context: str | None, field: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(field)):
        present_choices(question, options, context)  # type: ignore[arg-type]


def test_backticks_in_text_cannot_close_the_fence() -> None:
    text = present_choices("Run ```rm```?", ["yes ```", "no"])
    (segment,) = [s for s in split_message(text) if isinstance(s, ChoicesSegment)]
    assert segment.prompt.question == "Run ```rm```?"
    assert segment.prompt.options[0].label == "yes ```"


def test_tool_schema_is_derived_from_the_model() -> None:
    schema = tool_schema()
    assert schema["type"] == "function"
    function = schema["function"]
    assert function["name"] == "present_choices"
    parameters = function["parameters"]
    assert parameters == parameters_schema()
    assert set(parameters["properties"]) == set(ChoicePrompt.model_fields)
    assert parameters["required"] == ["question", "options"]
    assert parameters["properties"]["options"]["minItems"] == 2
    assert parameters["properties"]["options"]["maxItems"] == 4
    assert parameters["properties"]["options"]["items"]["required"] == ["label", "value"]
    assert "$ref" not in json.dumps(parameters)
    assert "title" not in json.dumps(parameters)


def test_anthropic_style_schema_uses_input_schema() -> None:
    schema = tool_schema("anthropic")
    assert schema["name"] == "present_choices"
    assert schema["input_schema"] == parameters_schema()
