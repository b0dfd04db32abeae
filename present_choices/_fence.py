"""The ```choices fence codec: write a prompt as a fence, and split a message back into segments.

Splitting never raises: whatever an agent writes, the chat can show something sensible. A fence that
holds no valid prompt is `MalformedSegment` (shown as the code block it is), and an unclosed fence at
the end of a message that is still streaming is `IncompleteSegment` (shown as a placeholder).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import ValidationError

from present_choices._markdown import markdown_parser
from present_choices._schema import ChoicePrompt

if TYPE_CHECKING:
    from markdown_it.token import Token

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
    """A choices block still being written: a fence not closed yet (`raw` is what has come of it), or
    a tool call whose arguments are still arriving (`raw` is empty)."""

    raw: str
    kind: Literal["incomplete"] = "incomplete"


Segment = MarkdownSegment | ChoicesSegment | MalformedSegment | IncompleteSegment


def render_fence(prompt: ChoicePrompt) -> str:
    """The prompt as a ```choices block. Backticks in the text are JSON-escaped so they cannot end it."""
    body = json.dumps(prompt.model_dump(exclude_none=True), ensure_ascii=False, indent=2)
    body = body.replace("`", "\\u0060")
    return f"```{FENCE_LANGUAGE}\n{body}\n```"


def split_message(text: str) -> list[Segment]:
    """Split a markdown message into ordered segments, in the order they appear.

    It parses with the same markdown-it set-up that renders the message (`markdown_parser`), so what
    it takes for a fence is what the reader would see as one.
    """
    source = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = source.split("\n")
    segments: list[Segment] = []
    markdown_start = 0
    for token in markdown_parser().parse(source):
        if not (
            token.type == "fence" and token.level == 0 and token.map and _is_choices(token.info)
        ):
            continue
        first, end = token.map
        _append_markdown(segments, lines[markdown_start:first])
        raw = "\n".join(lines[first:end])
        closed = fence_is_closed(token, lines)
        segments.append(_fence_segment(token.content, raw) if closed else IncompleteSegment(raw))
        markdown_start = end
    _append_markdown(segments, lines[markdown_start:])
    return segments


def fence_is_closed(fence: Token, lines: Sequence[str]) -> bool:
    """Whether `fence` (a markdown-it fence token) has its closing line in `lines`, the text it was
    parsed from, split into lines.

    markdown-it ends a fence that is never closed at the end of the text, so its token alone does not
    tell: the fence is closed when its last line is a run of its own marker at least as long as the
    opening one (and is not the opening line itself).
    """
    if fence.map is None:
        return False
    first, end = fence.map
    last_line = lines[end - 1].strip() if end - first >= 2 else ""
    return len(last_line) >= len(fence.markup) and set(last_line) == {fence.markup[0]}


def _is_choices(info: str) -> bool:
    words = info.split()
    return bool(words) and words[0].lower() == FENCE_LANGUAGE


def _append_markdown(segments: list[Segment], lines: list[str]) -> None:
    text = "\n".join(lines)
    if text.strip():
        segments.append(MarkdownSegment(text))


def _fence_segment(content: str, raw: str) -> ChoicesSegment | MalformedSegment:
    try:
        return ChoicesSegment(ChoicePrompt.model_validate(json.loads(content)), raw)
    except (ValueError, ValidationError, RecursionError):
        return MalformedSegment(raw)
