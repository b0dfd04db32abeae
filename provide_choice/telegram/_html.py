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

from present_choices._chat_markup import ChatMarkup

if TYPE_CHECKING:
    from markdown_it.token import Token

INLINE_TAGS = {
    kind: (f"<{tag}>", f"</{tag}>")
    for kind, tag in {"strong_open": "b", "em_open": "i", "s_open": "s"}.items()
}
"""Inline markup by the token that opens it: its opening and closing tags."""
LINK_SCHEMES = ("http://", "https://", "mailto:", "tg://")


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
    return _TelegramHTML.render(markdown)


class _TelegramHTML(ChatMarkup):
    inline_marks = INLINE_TAGS
    heading_marks = ("<b>", "</b>")

    def escaped(self, text: str, *, line_start: bool) -> str:
        return escaped(text)

    def code_block(self, code: str) -> str:
        return f"<pre>{escaped(code)}</pre>"

    def code_span(self, code: str) -> str:
        return f"<code>{escaped(code)}</code>"

    def link(self, target: str, inside: Sequence[Token]) -> None:
        if target.startswith(LINK_SCHEMES):
            self.parts.append(f'<a href="{html.escape(target, quote=True)}">')
            self.run(inside)
            self.parts.append("</a>")
            return
        self.run(inside)
        if target:
            self.parts.append(f" ({escaped(target)})")

    def quote_opened(self) -> None:
        if self.quotes == 1:  # Telegram's quotes do not nest: an inner one joins the outer
            self.end_line()
            self.parts.append("<blockquote>")

    def quote_closed(self) -> None:
        if self.quotes == 0:
            while self.parts and self.parts[-1] == "\n":
                self.parts.pop()
            self.parts.append("</blockquote>\n")
            self.line_started = False
