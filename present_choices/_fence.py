"""The ```choices fence codec: write a prompt as a fence, and split a message back into segments.

Splitting never raises: whatever an agent writes, the chat can show something sensible. A fence that
holds no valid prompt is `MalformedSegment` (shown as the code block it is), and an unclosed fence at
the end of a message that is still streaming is `IncompleteSegment` (shown as a placeholder).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Literal

from markdown_it import MarkdownIt
from pydantic import ValidationError

from present_choices._schema import ChoicePrompt

FENCE_LANGUAGE = "choices"


@dataclass(frozen=True)
class MarkdownSegment:
    """Ordinary markdown between choices fences."""

    text: str
    kind: Literal["markdown"] = "markdown"


@dataclass(frozen=True)
class ChoicesSegment:
    """A choices fence holding a valid prompt."""

    prompt: ChoicePrompt
    raw: str
    kind: Literal["choices"] = "choices"


@dataclass(frozen=True)
class MalformedSegment:
    """A choices fence whose content is not a valid prompt; `raw` is the fence as written."""

    raw: str
    kind: Literal["malformed"] = "malformed"


@dataclass(frozen=True)
class IncompleteSegment:
    """A choices fence not closed yet: the message is still streaming."""

    raw: str
    kind: Literal["incomplete"] = "incomplete"


Segment = MarkdownSegment | ChoicesSegment | MalformedSegment | IncompleteSegment


def render_fence(prompt: ChoicePrompt) -> str:
    """The prompt as a ```choices block. Backticks in the text are JSON-escaped so they cannot end it."""
    body = json.dumps(prompt.model_dump(exclude_none=True), ensure_ascii=False, indent=2)
    body = body.replace("`", "\\u0060")
    return f"```{FENCE_LANGUAGE}\n{body}\n```"


def split_message(text: str) -> list[Segment]:
    """Split a markdown message into ordered segments, in the order they appear."""
    source = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = source.split("\n")
    segments: list[Segment] = []
    markdown_start = 0
    for token in _parser().parse(source):
        if not (
            token.type == "fence" and token.level == 0 and token.map and _is_choices(token.info)
        ):
            continue
        first, end = token.map
        _append_markdown(segments, lines[markdown_start:first])
        raw = "\n".join(lines[first:end])
        closed = end - first >= 2 and _closes(lines[end - 1], token.markup)
        segments.append(_fence_segment(token.content, raw) if closed else IncompleteSegment(raw))
        markdown_start = end
    _append_markdown(segments, lines[markdown_start:])
    return segments


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _is_choices(info: str) -> bool:
    words = info.split()
    return bool(words) and words[0].lower() == FENCE_LANGUAGE


def _closes(line: str, markup: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(markup) and set(stripped) == {markup[0]}


def _append_markdown(segments: list[Segment], lines: list[str]) -> None:
    text = "\n".join(lines)
    if text.strip():
        segments.append(MarkdownSegment(text))


def _fence_segment(content: str, raw: str) -> ChoicesSegment | MalformedSegment:
    try:
        return ChoicesSegment(ChoicePrompt.model_validate(json.loads(content)), raw)
    except (ValueError, ValidationError, RecursionError):
        return MalformedSegment(raw)
