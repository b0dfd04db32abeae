"""present_choices: the shared option model, the `present_choices` tool and the ```choices codec.

`markdown_parser` is the one markdown-it set-up for agent text: the codec splits messages with it,
`render_markdown` renders with it, and a surface that renders tokens itself (the terminal) parses with it.
"""

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
from present_choices._markdown import markdown_parser, render_markdown
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
    "markdown_parser",
    "parameters_schema",
    "parse_prompt",
    "present_choices",
    "render_fence",
    "render_markdown",
    "split_message",
    "tool_schema",
]
