"""The `provide_choice` tool's input schema, as clients that build a form from it can fill it.

It is generated from the one request model (`ProvideChoiceRequest`), never written twice, then
flattened for weak clients: the MCP Inspector sends the value of a property without a plain `type`
(an `anyOf` with a `null` arm, a `$ref`) as a string.
"""

from __future__ import annotations

from typing import Any

from provide_choice._contract._batch import (
    BATCH_FIELDS,
    HEADER_LIMIT,
    MAX_QUESTIONS,
    QUESTION_FIELDS,
    QUESTION_ID,
)
from provide_choice._contract._request import ProvideChoiceRequest


def tool_input_schema() -> dict[str, Any]:
    """The `provide_choice` tool's JSON Schema: the request's fields at the top level, plus
    `session_id`. Nothing is marked required, because a poll sends `session_id` alone; the
    descriptions say which fields a question needs.

    Every property has one plain JSON `type`, with no `null` arm and no `$ref`: clients that build
    a form from the schema (the MCP Inspector) send a value they cannot type as a string. Leaving
    an optional field out is how to say "none"."""
    schema = _plain_types(ProvideChoiceRequest.model_json_schema(by_alias=True))
    properties = schema["properties"]
    required = schema.pop("required", [])
    properties["questions"] = _questions_schema(properties, required)
    for name in required:
        ask = "" if name in BATCH_FIELDS else " or questions"
        properties[name]["description"] = (
            f"Required unless session_id{ask} is given. " + properties[name]["description"]
        )
    properties["session_id"] = {
        "type": "string",
        "description": (
            "Only to keep waiting for an open question: the selection.session_id of an earlier "
            "pending or pending_terminal_launch response. When given, every other argument may be "
            "omitted (it is ignored)."
        ),
    }
    return schema


def _questions_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """`questions`: each item has an id, a header, and the single-question fields as the top level
    has them (copied before their top-level descriptions say what a batch changes)."""
    question = {name: dict(properties[name]) for name in QUESTION_FIELDS}
    return {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_QUESTIONS,
        "description": (
            f"Several questions asked at once (1 to {MAX_QUESTIONS}), instead of prompt, "
            "selection_mode, options and the other single-question fields, which each question "
            "has instead; title, timeout_seconds and transport stay at the top. The response "
            "then holds answers, one per question in this order."
        ),
        "items": {
            "type": "object",
            "properties": {
                "id": {
                    "type": "string",
                    "pattern": f"^{QUESTION_ID.pattern}$",
                    "description": "Unique in the request; names the question's answer.",
                },
                "header": {
                    "type": "string",
                    "maxLength": HEADER_LIMIT,
                    "description": f"A short tag shown as a chip (at most {HEADER_LIMIT} characters).",
                },
                **question,
            },
            "required": ["id", *(name for name in required if name in QUESTION_FIELDS)],
            "additionalProperties": False,
        },
    }


def _plain_types(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with `$ref`s inlined and every `anyOf: [X, {"type": "null"}]` made just `X`."""
    definitions = schema.pop("$defs", {})

    def plain(node: object) -> object:
        if isinstance(node, list):
            return [plain(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return plain(definitions[node["$ref"].rsplit("/", 1)[-1]])
        arms = node.get("anyOf")
        if isinstance(arms, list) and {"type": "null"} in arms and len(arms) == 2:
            (kept,) = [arm for arm in arms if arm != {"type": "null"}]
            rest = {key: value for key, value in node.items() if key != "anyOf"}
            if rest.get("default", ...) is None:
                del rest["default"]
            node = rest | dict(kept)
        return {key: plain(value) for key, value in node.items()}

    result = plain(schema)
    assert isinstance(result, dict)
    return result
