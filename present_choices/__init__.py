"""present_choices: the shared option model, the `present_choices` tool and the ```choices codec.

`markdown_parser` is the one markdown-it set-up for agent text: the codec splits messages with it,
`render_markdown` renders with it, and a surface that renders tokens itself (the terminal) parses with it.

Every name is loaded on first use (PEP 562): every module of the three packages imports this one
(its translation and its command line live here), and a command that only prints its `--help`, or
a terminal that only shows a question, needs neither pydantic nor markdown-it to do it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names

if TYPE_CHECKING:
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

_MODULES = {
    "FENCE_LANGUAGE": "present_choices._fence",
    "MAX_OPTIONS": "present_choices._schema",
    "MIN_OPTIONS": "present_choices._schema",
    "TOOL_DESCRIPTION": "present_choices._tool",
    "TOOL_NAME": "present_choices._tool",
    "ChoiceOption": "present_choices._schema",
    "ChoicePrompt": "present_choices._schema",
    "ChoicesError": "present_choices._schema",
    "ChoicesSegment": "present_choices._fence",
    "IncompleteSegment": "present_choices._fence",
    "MalformedSegment": "present_choices._fence",
    "MarkdownSegment": "present_choices._fence",
    "Segment": "present_choices._fence",
    "describe_errors": "present_choices._schema",
    "field_path": "present_choices._schema",
    "markdown_parser": "present_choices._markdown",
    "parameters_schema": "present_choices._tool",
    "parse_prompt": "present_choices._tool",
    "present_choices": "present_choices._tool",
    "render_fence": "present_choices._fence",
    "render_markdown": "present_choices._markdown",
    "split_message": "present_choices._fence",
    "tool_schema": "present_choices._tool",
}
"""Where each public name lives: loaded from there on first use (PEP 562)."""

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


__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)
