"""The provide_choice request contract: every invalid request is refused, in full, before anything
is shown, with each problem naming the field and what is allowed. Checked through the MCP SDK's own
in-memory client, as an agent would meet it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp_types import CallToolResult, TextContent

from present_choices import ChoicesError
from provide_choice import (
    Interaction,
    ProvideChoiceOption,
    ProvideChoiceRequest,
    Reply,
    SelectionLimits,
    SessionPoll,
    create_server,
    parse_call,
    parse_request,
    tool_input_schema,
)


def option(option_id: str, recommended: bool = False) -> dict[str, Any]:
    return {"id": option_id, "label": option_id.upper(), "recommended": recommended}


OPTIONS = [option("a", recommended=True), option("b"), option("c")]


def request(**changes: Any) -> dict[str, Any]:
    """A valid multi request, changed as the case needs (a value of ... removes the field)."""
    base: dict[str, Any] = {
        "title": "Deploy",
        "prompt": "Two services changed; which should I deploy?",
        "selection_mode": "multi",
        "options": OPTIONS,
    }
    return {key: value for key, value in (base | changes).items() if value is not ...}


INVALID_REQUESTS: list[tuple[str, dict[str, Any], str]] = [
    ("missing title", request(title=...), "title is required"),
    ("empty prompt", request(prompt="  "), "prompt must not be empty"),
    (
        "unknown selection_mode",
        request(selection_mode="radio"),
        "selection_mode must be one of 'single', 'multi', 'text_input' or 'hybrid', got 'radio'",
    ),
    (
        "unknown field",
        request(colour="red"),
        "colour is not an allowed field; allowed: title, prompt, selection_mode, options",
    ),
    (
        "unknown option field",
        request(options=[option("a", True), {"id": "b", "label": "B", "value": "b"}]),
        "options[1].value is not an allowed field; allowed: label, id, description, recommended",
    ),
    (
        "option without label",
        request(options=[option("a", True), {"id": "b"}]),
        "options[1].label is required",
    ),
    (
        "options not a list",
        request(options="a, b"),
        "options must be a list, got a string",
    ),
    (
        "too few options for single",
        request(selection_mode="single", options=[option("a", True)]),
        "options must have at least 2 items for single, got 1",
    ),
    (
        "no options for multi",
        request(options=...),
        "options must have at least 2 items for multi, got 0",
    ),
    (
        "no options for hybrid",
        request(selection_mode="hybrid", options=[]),
        "options must have at least 1 item for hybrid, got 0",
    ),
    (
        "options for text_input",
        request(selection_mode="text_input"),
        "options is not allowed for text_input (the person types the answer)",
    ),
    (
        "duplicate ids",
        request(options=[option("a", True), option("b"), option("a")]),
        "options ids must be unique, repeated: 'a'",
    ),
    (
        "no recommended option",
        request(options=[option("a"), option("b")]),
        "options must mark at least one option with recommended: true",
    ),
    (
        "placeholder for single",
        request(selection_mode="single", placeholder="PostgreSQL"),
        "placeholder is only allowed for text_input and hybrid, not single",
    ),
    (
        "placeholder for multi",
        request(placeholder="both"),
        "placeholder is only allowed for text_input and hybrid, not multi",
    ),
    (
        "inverted limits",
        request(min_selections=3, max_selections=2),
        "min_selections (3) must not be greater than max_selections (2)",
    ),
    (
        "max above the number of options",
        request(max_selections=4),
        "max_selections must be at most the number of options (3), got 4",
    ),
    (
        "negative minimum",
        request(min_selections=-1),
        "min_selections must be at least 0, got -1",
    ),
    (
        "single allows one at most",
        request(selection_mode="single", max_selections=2),
        "max_selections must be at most 1 for single, got 2",
    ),
    (
        "minimum above the default maximum",
        request(selection_mode="hybrid", min_selections=2, options=OPTIONS),
        "min_selections (2) must not be greater than max_selections (1, the default for hybrid)",
    ),
    (
        "default not among the options",
        request(default_selection_ids=["a", "z"]),
        "default_selection_ids[1] 'z' is not an option id; allowed: 'a', 'b', 'c'",
    ),
    (
        "two defaults for single",
        request(selection_mode="single", default_selection_ids=["a", "b"]),
        "default_selection_ids may hold at most 1 id for single, got 2",
    ),
    (
        "defaults outside the limits",
        request(default_selection_ids=["a"], min_selections=2),
        "default_selection_ids must hold 2 to 3 ids to fit min_selections and max_selections, got 1",
    ),
    (
        "regression: one id is not said as '1 ids'",
        request(default_selection_ids=["a", "b"], min_selections=1, max_selections=1),
        "default_selection_ids must hold 1 id to fit min_selections and max_selections, got 2",
    ),
    (
        "defaults for text_input",
        request(selection_mode="text_input", options=..., default_selection_ids=["a"]),
        "default_selection_ids is not allowed for text_input (it has no options)",
    ),
    (
        "limits for text_input",
        request(selection_mode="text_input", options=..., max_selections=1),
        "max_selections must be 0 or left out for text_input (it has no options), got 1",
    ),
    ("zero timeout", request(timeout_seconds=0), "timeout_seconds must be at least 1, got 0"),
    (
        "timeout not a number",
        request(timeout_seconds="soon"),
        "timeout_seconds must be a whole number, got 'soon'",
    ),
    (
        "unknown transport",
        request(transport="email"),
        "transport must be one of 'terminal', 'web', 'elicitation', 'app', 'slack' or 'telegram', got 'email'",
    ),
    (
        "annotations flag not a boolean",
        request(allow_annotations="sometimes"),
        "allow_annotations must be true or false, got 'sometimes'",
    ),
    (
        "empty session id",
        {"session_id": " "},
        "session_id must be a non-empty string from an earlier response",
    ),
]


class _NeverAsked:
    async def ask(self, interaction: Interaction) -> Reply:
        raise AssertionError(f"an invalid request reached the person: {interaction.request}")


async def call_provide_choice(arguments: dict[str, Any]) -> CallToolResult:
    # The client is opened in the test's own task: anyio refuses one opened in a fixture.
    async with Client(create_server({"terminal": _NeverAsked()})) as client:
        return await client.call_tool("provide_choice", arguments)


def text_of(result: CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return content.text


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [pytest.param(arguments, expected, id=name) for name, arguments, expected in INVALID_REQUESTS],
)
async def test_invalid_request_is_an_error_result_naming_the_problem(
    arguments: dict[str, Any], expected: str
) -> None:
    result = await call_provide_choice(arguments)
    assert result.is_error
    text = text_of(result)
    assert text.startswith("Invalid provide_choice request; nothing was shown to the person.")
    assert f"- {expected}" in text


async def test_every_problem_is_listed_at_once() -> None:
    arguments = request(
        title=...,
        selection_mode="radio",
        options=[option("a"), option("a")],
        min_selections=3,
        max_selections=2,
        timeout_seconds=0,
        colour="red",
    )
    result = await call_provide_choice(arguments)
    problems = [line for line in text_of(result).splitlines() if line.startswith("- ")]
    assert problems == [
        "- title is required",
        "- selection_mode must be one of 'single', 'multi', 'text_input' or 'hybrid', got 'radio'",
        "- timeout_seconds must be at least 1, got 0",
        f"- colour is not an allowed field; allowed: {', '.join(ProvideChoiceRequest.model_fields)}",
        "- options ids must be unique, repeated: 'a'",
        "- options must mark at least one option with recommended: true",
        "- min_selections (3) must not be greater than max_selections (2)",
    ]


def test_a_field_with_a_wrong_type_does_not_hide_broken_rules_elsewhere() -> None:
    with pytest.raises(ChoicesError) as raised:
        parse_request(request(title=7, default_selection_ids=["z"]))
    assert raised.value.problems == [
        "title must be a string, got a number",
        "default_selection_ids[0] 'z' is not an option id; allowed: 'a', 'b', 'c'",
    ]


def test_direct_construction_enforces_the_same_rules() -> None:
    with pytest.raises(ValueError, match="options must mark at least one option"):
        ProvideChoiceRequest(
            title="T",
            prompt="P",
            selection_mode="single",
            options=[
                ProvideChoiceOption(id="a", label="A"),
                ProvideChoiceOption(id="b", label="B"),
            ],
        )


def test_option_id_plays_the_role_of_the_shared_option_value() -> None:
    parsed = parse_request(request())
    first = parsed.options[0]  # type: ignore[index]
    assert first.id == first.value == "a"
    assert first.model_dump(by_alias=True) == {
        "label": "A",
        "id": "a",
        "description": None,
        "recommended": True,
    }


@pytest.mark.parametrize(
    ("changes", "limits"),
    [
        ({"selection_mode": "single"}, SelectionLimits(1, 1)),
        ({"selection_mode": "single", "min_selections": 0}, SelectionLimits(0, 1)),
        ({}, SelectionLimits(1, 3)),
        ({"min_selections": 0, "max_selections": 2}, SelectionLimits(0, 2)),
        ({"selection_mode": "hybrid"}, SelectionLimits(0, 1)),
        ({"selection_mode": "text_input", "options": ...}, SelectionLimits(0, 0)),
    ],
)
def test_limits_default_by_mode(changes: dict[str, Any], limits: SelectionLimits) -> None:
    assert parse_request(request(**changes)).limits == limits


def test_list_arguments_sent_as_json_text_are_accepted() -> None:
    parsed = parse_request(
        request(
            options='[{"id": "a", "label": "A", "recommended": true}, {"id": "b", "label": "B"}]',
            default_selection_ids='["b"]',
        )
    )
    assert parsed.option_ids == ["a", "b"]
    assert parsed.default_selection_ids == ["b"]


def test_allow_cancel_is_accepted_and_ignored() -> None:
    assert parse_request(request(allow_cancel=False)).allow_cancel is False


def test_session_id_makes_every_other_argument_optional() -> None:
    assert parse_call({"session_id": "abc"}) == SessionPoll("abc")
    assert parse_call(request(session_id="abc", title=...)) == SessionPoll("abc")
    assert isinstance(parse_call(request(session_id=None)), ProvideChoiceRequest)


def test_input_schema_shows_the_arguments_at_the_top_level_with_descriptions() -> None:
    schema = tool_input_schema()
    properties = schema["properties"]
    assert list(properties)[:4] == ["title", "prompt", "selection_mode", "options"]
    assert set(properties) == {*ProvideChoiceRequest.model_fields, "questions", "session_id"}
    assert all(property_schema.get("description") for property_schema in properties.values())
    assert properties["selection_mode"]["enum"] == ["single", "multi", "text_input", "hybrid"]
    assert "required" not in schema
    assert properties["title"]["description"].startswith("Required unless session_id is given.")
    assert schema["additionalProperties"] is False


def test_regression_every_property_has_a_plain_type_that_form_clients_can_fill() -> None:
    # The MCP Inspector sent values of untyped `anyOf` properties (min_selections, options) as
    # strings; every property now has one JSON type, no null arm and no $ref to follow.
    schema = tool_input_schema()
    text = json.dumps(schema)
    assert "anyOf" not in text
    assert "$ref" not in text
    assert "$defs" not in schema
    types = {name: value["type"] for name, value in schema["properties"].items()}
    assert types["min_selections"] == "integer"
    assert types["transport"] == "string"
    assert types["placeholder"] == "string"
    assert types["options"] == "array"
    option = schema["properties"]["options"]["items"]
    assert option["type"] == "object"
    assert option["properties"]["description"]["type"] == "string"
    assert "default" not in schema["properties"]["placeholder"]


def test_stringified_numbers_lists_and_booleans_are_still_accepted() -> None:
    parsed = parse_request(
        request(
            selection_mode="multi",
            options=json.dumps(request()["options"]),
            min_selections="1",
            max_selections="2",
            allow_annotations="false",
        )
    )
    assert parsed.limits == (1, 2)
    assert parsed.allow_annotations is False


def test_regression_an_error_never_echoes_a_megabyte_of_input() -> None:
    # A 1 MB selection_mode came back in a 1,000,181-character error.
    with pytest.raises(ChoicesError) as error:
        parse_request(request(selection_mode="x" * 1_000_000))
    (problem,) = error.value.problems
    assert len(problem) < 200
    assert problem.endswith("(1,000,000 characters)")


def test_regression_an_error_about_ten_thousand_options_lists_a_few_and_counts_the_rest() -> None:
    # 10,000 options with a bad default id produced a 99 KB error listing every id.
    options = [{"id": f"o{index}", "label": "L", "recommended": True} for index in range(10_000)]
    with pytest.raises(ChoicesError) as error:
        parse_request(request(options=options, default_selection_ids=["nope"]))
    (problem,) = error.value.problems
    assert problem.endswith("'o8', 'o9' and 9,990 more")
    assert len(problem) < 300
