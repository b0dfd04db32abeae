"""present_choices: the shared option model, the `present_choices` tool and the ```choices codec."""

from present_choices._fence import (
    FENCE_LANGUAGE,
    ChoicesSegment,
    IncompleteSegment,
    MalformedSegment,
    MarkdownSegment,
    Segment,
    render_fence,
    split_message,
)
from present_choices._markdown import render_markdown
from present_choices._schema import (
    MAX_OPTIONS,
    MIN_OPTIONS,
    ChoiceOption,
    ChoicePrompt,
    ChoicesError,
    describe_errors,
    field_path,
)
from present_choices._tool import (
    TOOL_DESCRIPTION,
    TOOL_NAME,
    parameters_schema,
    parse_prompt,
    present_choices,
    tool_schema,
)

__all__ = [
    "FENCE_LANGUAGE",
    "MAX_OPTIONS",
    "MIN_OPTIONS",
    "TOOL_DESCRIPTION",
    "TOOL_NAME",
    "ChoiceOption",
    "ChoicePrompt",
    "ChoicesError",
    "ChoicesSegment",
    "IncompleteSegment",
    "MalformedSegment",
    "MarkdownSegment",
    "Segment",
    "describe_errors",
    "field_path",
    "parameters_schema",
    "parse_prompt",
    "present_choices",
    "render_fence",
    "render_markdown",
    "split_message",
    "tool_schema",
]
