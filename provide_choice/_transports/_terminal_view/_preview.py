"""An option's preview under the list, cut to the lines the window has left for it.

The preview is agent markdown (a diff, a config snippet, a table) drawn by `_markdown`; a long one
must never push the list or the time left off the screen, so it is cut at a line boundary and the
last line says how much was left out.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import (
    fragment_list_to_text,
    fragment_list_width,
    split_lines,
)

from present_choices._translation import Translation
from provide_choice._contract._request import ProvideChoiceOption
from provide_choice._transports._terminal_view._markdown import markdown_text

MINIMUM_ROOM = 2
"""Fewer lines than this left for a preview: it is not drawn at all (a title and nothing else)."""


def option_preview(
    option: ProvideChoiceOption | None, translation: Translation
) -> StyleAndTextTuples:
    """The preview of an option as drawn under the list: its label, then its markdown."""
    if option is None or option.preview is None:
        return []
    title = translation.gettext("Preview · {option}", option=option.label)
    return [("class:preview.title", title), ("", "\n"), *markdown_text(option.preview)]


def line_count(fragments: StyleAndTextTuples, width: int) -> int:
    """How many terminal lines `fragments` take at `width` columns, long lines wrapped."""
    width = max(width, 1)
    return sum(max(1, -(-fragment_list_width(line) // width)) for line in _lines(fragments))


def _lines(fragments: StyleAndTextTuples) -> list[StyleAndTextTuples]:
    """The lines of `fragments`, without the empty ones at the end (a closing newline, the blank
    line the markdown writer leaves after its last block): they start no row of their own."""
    lines = list(split_lines(fragments))
    while lines and not fragment_list_to_text(lines[-1]):
        lines.pop()
    return lines


def fitted_preview(
    fragments: StyleAndTextTuples, width: int, room: int, translation: Translation
) -> StyleAndTextTuples:
    """`fragments` cut to at most `room` lines at `width` columns; a cut preview ends with a line
    that says how many lines were left out (and that a taller window shows them)."""
    if not fragments or room < MINIMUM_ROOM:
        return []
    lines = _lines(fragments)
    heights = [line_count(line, width) for line in lines]
    if sum(heights) <= room:
        return fragments
    kept: StyleAndTextTuples = []
    used = 0
    for index, (line, height) in enumerate(zip(lines, heights, strict=True)):
        if used + height > room - 1:  # one line stays for saying what was left out
            hidden = translation.ngettext(
                "… {count} more line (a taller window shows them)",
                "… {count} more lines (a taller window shows them)",
                len(lines) - index,
            )
            return [*kept, ("class:preview.more", hidden)]
        kept += [*line, ("", "\n")]
        used += height
    return kept
