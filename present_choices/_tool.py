"""The `present_choices` tool: validate a question and hand the agent a ```choices block to paste."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import ValidationError

from present_choices._fence import render_fence
from present_choices._schema import ChoiceOption, ChoicePrompt, ChoicesError

TOOL_NAME = "present_choices"
TOOL_DESCRIPTION = (
    "Ask the user to pick one of 2 to 4 options as clickable buttons in the chat. "
    "Use it when you need the user to decide between a few concrete alternatives instead of guessing. "
    "Returns a ```choices block: put it in your reply exactly as given, then stop and wait; "
    "the user's next message is the `value` of the option they picked."
)

OptionInput = ChoiceOption | dict[str, Any] | str


def present_choices(
    question: str, options: Sequence[OptionInput], context: str | None = None
) -> str:
    """Validate the question and return instructions holding the exact ```choices block to output.

    An option may be a `ChoiceOption`, a `{"label", "value"}` mapping, or a plain string used as both.
    Raises `ValueError` (a `ChoicesError`) naming every invalid field and what is allowed.
    """
    prompt = parse_prompt({"question": question, "options": options, "context": context})
    return (
        "Show these choices to the user: copy the block below into your reply exactly as it is, "
        "then stop and wait for their answer. Their next message will be the value of the option "
        "they picked (or their own words if they type instead).\n\n" + render_fence(prompt)
    )


def parse_prompt(data: object) -> ChoicePrompt:
    """Validate raw tool arguments into a `ChoicePrompt`, raising `ChoicesError` on bad input."""
    if isinstance(data, dict) and isinstance(data.get("options"), list | tuple):
        data = {**data, "options": [_option_data(option) for option in data["options"]]}
    try:
        return ChoicePrompt.model_validate(data)
    except ValidationError as error:
        raise ChoicesError.from_validation_error(error, ChoicePrompt) from None


def _option_data(option: object) -> object:
    if isinstance(option, str):
        return {"label": option, "value": option}
    if isinstance(option, ChoiceOption):
        return option.model_dump()
    return option


def tool_schema(style: Literal["openai", "anthropic"] = "openai") -> dict[str, Any]:
    """The tool definition in the shape LLM APIs take for function calling, built from the model.

    `openai` gives `{"type": "function", "function": {name, description, parameters}}` (also used by
    most OpenAI-compatible servers); `anthropic` gives `{name, description, input_schema}`.
    """
    parameters = parameters_schema()
    if style == "anthropic":
        return {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": parameters}
    return {
        "type": "function",
        "function": {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "parameters": parameters},
    }


def parameters_schema() -> dict[str, Any]:
    """JSON Schema of the tool's arguments, with `$defs` inlined because some APIs reject `$ref`."""
    schema = ChoicePrompt.model_json_schema()
    definitions = schema.pop("$defs", {})
    inlined: dict[str, Any] = _strip_titles(_inline(schema, definitions))
    return inlined


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            target = definitions[node["$ref"].rsplit("/", 1)[-1]]
            return _inline(copy.deepcopy(target), definitions)
        return {key: _inline(value, definitions) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    return node


def _strip_titles(node: Any, is_properties_map: bool = False) -> Any:
    """Drop pydantic's generated `title`s (noise to a model) but keep a property named `title`."""
    if isinstance(node, dict):
        return {
            key: _strip_titles(
                value, is_properties_map=key == "properties" and not is_properties_map
            )
            for key, value in node.items()
            if is_properties_map or key != "title"
        }
    if isinstance(node, list):
        return [_strip_titles(item) for item in node]
    return node
