"""The `provide_choice` tool's input schema, as clients that build a form from it can fill it.

It is generated from the one request model (`ProvideChoiceRequest`), never written twice, then
flattened for weak clients: the MCP Inspector sends the value of a property without a plain `type`
(an `anyOf` with a `null` arm, a `$ref`) as a string.
"""

from __future__ import annotations

from typing import Any

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
    for name in schema.pop("required", []):
        properties[name]["description"] = (
            "Required unless session_id is given. " + properties[name]["description"]
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
