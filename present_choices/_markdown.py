"""Agent markdown to HTML with markdown-it-py: CommonMark plus tables, and nothing an agent can abuse.

One renderer for every surface that shows agent text: the chat's messages and the web portal's
prompts. NiceGUI's own `ui.markdown` uses markdown2, which renders differently from the markdown-it
parser the fence codec splits messages with; rendering with the very parser the codec uses keeps both
views of a message in agreement. Raw HTML is escaped (html disabled), markdown-it already refuses `javascript:`-style link
targets, and images are not rendered: an image loads by itself, so an agent could leak conversation
text through its URL without anyone clicking. `![alt](url)` therefore shows as an ordinary link.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

FOCUSABLE = {"<pre>": '<pre tabindex="0">', "<table>": '<table tabindex="0">'}
"""A code block or table wider than its column scrolls sideways, and a keyboard can only scroll
what can take focus (axe: scrollable-region-focusable). markdown-it escapes any HTML in agent text,
so every `<pre>` and `<table>` in its output is one it made."""


def render_markdown(text: str) -> str:
    """The HTML for agent markdown (a message segment, a question's prompt), with its sideways
    scrolling blocks reachable by keyboard."""
    html: str = markdown_parser().render(text)
    for tag, focusable in FOCUSABLE.items():
        html = html.replace(tag, focusable)
    return html


@cache
def markdown_parser() -> MarkdownIt:
    """The one markdown-it set-up for agent text: `render_markdown` renders with it, the fence codec
    splits messages with it (so a fence is a fence on both sides), and the terminal renders its tokens
    itself. markdown-it-py loads with it, when text is first split or rendered: a server starts
    without it."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")


BULLET = "• "
"""The marker of an item of a bulleted list, where agent markdown is written as text."""


class ListMarkers:
    """Each list item's marker as a walk over markdown-it's tokens meets it: `BULLET` in a bulleted
    list, its number in a numbered one (`3. `, counting from the list's `start`), lists nested in
    lists each counting their own. Shared by every surface that writes agent markdown as text (the
    terminal, the chat apps' markup)."""

    def __init__(self) -> None:
        self._counters: list[int | None] = []

    def opened(self, token: Token) -> None:
        """A `bullet_list_open` or `ordered_list_open` token: a list begins."""
        numbered = token.type == "ordered_list_open"
        self._counters.append(int(token.attrGet("start") or 1) if numbered else None)

    def closed(self) -> None:
        """A list ends."""
        self._counters.pop()

    def next_marker(self) -> str:
        """The marker of the item a `list_item_open` token begins."""
        number = self._counters[-1]
        if number is None:
            return BULLET
        self._counters[-1] = number + 1
        return f"{number}. "
