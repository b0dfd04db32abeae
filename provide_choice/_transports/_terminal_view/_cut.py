"""Lines cut at the window's width, saying so: the last column of a cut line is `…`.

A list's entry wider than the window (a setting with a long value, an option with a long label) is
not wrapped by its window: the terminal would simply lose its end, and the person could not tell
a value cut from a value that ends there. The status line, too, is one line at most per thing said.
Widths are the terminal's (`get_cwidth`): a Chinese character takes two columns.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import AnyFormattedText, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.formatted_text.utils import fragment_list_width, split_lines
from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"


def cut_text(text: str, width: int) -> str:
    """`text` (one line) in at most `width` columns, ending with `…` when it was cut."""
    return text if get_cwidth(text) <= width else _within(text, width - 1) + ELLIPSIS


def cut_lines(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """Each line of `fragments` in at most `width` columns, a cut one ending with `…`."""
    lines = list(split_lines(fragments))
    cut: StyleAndTextTuples = []
    for number, line in enumerate(lines):
        if number:
            cut.append(("", "\n"))
        cut += line if fragment_list_width(line) <= width else _cut_line(line, width)
    return cut


def cut_at_width(
    text: AnyFormattedText, width: Callable[[], int]
) -> Callable[[], StyleAndTextTuples]:
    """A control's text (its function, called at each redraw) with its lines cut at `width()`
    columns."""
    return lambda: cut_lines(to_formatted_text(text), width())


def _cut_line(line: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    kept: StyleAndTextTuples = []
    used = 0
    for fragment in line:
        style, text = fragment[0], fragment[1]
        if "[ZeroWidthEscape]" in style:
            kept.append(fragment)
            continue
        room = width - 1 - used
        if get_cwidth(text) <= room:
            kept.append(fragment)
            used += get_cwidth(text)
            continue
        kept.append((style, _within(text, room) + ELLIPSIS))
        return kept
    return kept


def _within(text: str, width: int) -> str:
    """The start of `text` that fits in `width` columns."""
    kept, used = [], 0
    for character in text:
        used += get_cwidth(character)
        if used > width:
            break
        kept.append(character)
    return "".join(kept)
