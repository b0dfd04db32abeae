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
