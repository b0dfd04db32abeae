"""Agent markdown as Telegram's HTML: the tags it reads (`b`, `i`, `s`, `code`, `pre`, `a`,
`blockquote`), everything else as escaped text.

It reads the tokens of the one markdown-it set-up every surface uses (`present_choices.
markdown_parser`: raw HTML off, images as links), as the terminal does, so a prompt means the same
on the page, in a terminal and in the chat. Agent text only ever reaches Telegram through
`escaped`: a `<b>` an agent writes in a title or a prompt shows as those characters, and nothing
an agent writes can open or close a tag of ours. Links go out only for the schemes a phone opens
safely (http, https, mailto, tg); any other shows its text and its target.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from present_choices import markdown_parser

if TYPE_CHECKING:
    from markdown_it.token import Token

INLINE_TAGS = {"strong_open": "b", "em_open": "i", "s_open": "s"}
"""Inline markup by the token that opens it; the matching `_close` token ends it."""
LINK_SCHEMES = ("http://", "https://", "mailto:", "tg://")
BULLET = "• "
RULE = "———"


def escaped(text: str) -> str:
    """Text as Telegram's HTML shows it: `<`, `>` and `&` as entities."""
    return html.escape(text, quote=False)


def bold(text: str) -> str:
    return f"<b>{escaped(text)}</b>"


def italic(text: str) -> str:
    return f"<i>{escaped(text)}</i>"


def telegram_html(markdown: str) -> str:
    """Agent markdown as Telegram HTML: blocks separated by a blank line, lists with their
    markers, quotes as blockquotes, code as `pre`, headings in bold."""
    writer = _Writer()
    for token in markdown_parser().parse(markdown):
        writer.block(token)
    return writer.finished()


class _Writer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.counters: list[int | None] = []
        """The next number of each open list, innermost last; None for a bulleted list."""
        self.indent = 0
        self.marker: str | None = None
        self.line_started = False
        self.heading = False
        self.quotes = 0

    def block(self, token: Token) -> None:
        kind = token.type
        if kind == "inline":
            self.inline(token.children or [])
        elif kind in ("fence", "code_block"):
            self.start_line()
            self.parts.append(f"<pre>{escaped(token.content.rstrip(chr(10)))}</pre>")
            self.newline()
        elif kind == "hr":
            self.write(RULE)
            self.newline()
        elif kind == "heading_open":
            self.heading = True
        elif kind in ("heading_close", "paragraph_close", "tr_close"):
            self.heading = False
            if self.line_started:
                self.newline()
        elif kind in ("th_open", "td_open") and self.line_started:
            self.write(" │ ")
        elif kind in ("bullet_list_open", "ordered_list_open"):
            start = token.attrGet("start")
            self.counters.append(None if kind == "bullet_list_open" else int(start or 1))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.counters.pop()
        elif kind == "list_item_open":
            number = self.counters[-1]
            self.marker = BULLET if number is None else f"{number}. "
            if number is not None:
                self.counters[-1] = number + 1
            self.indent += 1
        elif kind == "list_item_close":
            self.indent -= 1
        elif kind == "blockquote_open":
            self.quotes += 1
            if self.quotes == 1:  # Telegram's quotes do not nest: an inner one joins the outer
                self.end_line()
                self.parts.append("<blockquote>")
        elif kind == "blockquote_close":
            self.quotes -= 1
            if self.quotes == 0:
                self.trim()
                self.parts.append("</blockquote>\n")
                self.line_started = False
        ends_a_block = kind.endswith("_close") or kind in ("fence", "code_block", "hr")
        if ends_a_block and token.level == 0 and self.quotes == 0:
            self.newline()  # a blank line between top-level blocks

    def inline(self, children: Sequence[Token]) -> None:
        closing: list[str] = ["</b>"] if self.heading else []
        if self.heading:
            self.start_line()
            self.parts.append("<b>")
        for child in children:
            kind = child.type
            if kind in INLINE_TAGS:
                self.start_line()
                self.parts.append(f"<{INLINE_TAGS[kind]}>")
                closing.append(f"</{INLINE_TAGS[kind]}>")
            elif kind.endswith("_close") and kind.replace("_close", "_open") in INLINE_TAGS:
                self.parts.append(closing.pop())
            elif kind == "link_open":
                target = str(child.attrGet("href") or "")
                self.start_line()
                if target.startswith(LINK_SCHEMES):
                    self.parts.append(f'<a href="{html.escape(target, quote=True)}">')
                    closing.append("</a>")
                else:
                    closing.append(f" ({escaped(target)})" if target else "")
            elif kind == "link_close":
                self.parts.append(closing.pop())
            elif kind == "code_inline":
                self.start_line()
                self.parts.append(f"<code>{escaped(child.content)}</code>")
            elif kind == "softbreak":
                self.write(" ")
            elif kind == "hardbreak":
                self.newline()
            else:  # text, and anything else markdown-it keeps as text (raw HTML is disabled)
                self.write(child.content)
        self.parts.extend(reversed(closing))

    def start_line(self) -> None:
        if self.line_started:
            return
        self.line_started = True
        if self.indent:
            prefix = "   " * (self.indent - 1)
            if self.marker is not None:
                self.parts.append(prefix + self.marker)
                self.marker = None
            else:
                self.parts.append(prefix + "   ")

    def write(self, text: str) -> None:
        if text:
            self.start_line()
            self.parts.append(escaped(text))

    def newline(self) -> None:
        self.parts.append("\n")
        self.line_started = False

    def end_line(self) -> None:
        if self.line_started:
            self.newline()

    def trim(self) -> None:
        while self.parts and self.parts[-1] == "\n":
            self.parts.pop()

    def finished(self) -> str:
        text = "".join(self.parts)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text.strip("\n")
