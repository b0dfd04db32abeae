"""Agent markdown drawn in a chat app's own markup (Telegram's HTML, Slack's mrkdwn): the one walk
over the tokens of the markdown-it set-up every surface uses (`markdown_parser`), so a prompt means
the same in every chat as on the page and in a terminal.

`ChatMarkup` keeps what every chat draws alike: blocks separated by a blank line, lists with their
markers and indents, table cells side by side, headings in bold, a rule as a line. A subclass says
how its app writes the rest: how agent text is escaped (the only way text reaches the result), code,
bold and the like, quotes and links. markdown-it-py loads with the parser, when text is first drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from present_choices._markdown import ListMarkers, markdown_parser

if TYPE_CHECKING:
    from markdown_it.token import Token

RULE = "———"


class ChatMarkup:
    """One drawing of agent markdown: `render(markdown)` makes a fresh one and returns its text."""

    indent: ClassVar[str] = "   "
    """What a list item's lines are indented by, per level."""
    inline_marks: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """The markup around bold, italic and struck text, by the token that opens it."""
    heading_marks: ClassVar[tuple[str, str]] = ("", "")

    @classmethod
    def render(cls, markdown: str) -> str:
        drawing = cls()
        for token in markdown_parser().parse(markdown):
            drawing.block(token)
        return drawing.finished()

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.lists = ListMarkers()
        """The markers of the items of the lists open now."""
        self.depth = 0
        self.marker: str | None = None
        self.line_started = False
        self.heading = False
        self.quotes = 0

    # What a chat app writes its own way.

    def escaped(self, text: str, *, line_start: bool) -> str:
        """Agent text as the app shows it, never as its markup (`line_start`: at a line's start)."""
        raise NotImplementedError

    def code_block(self, code: str) -> str:
        raise NotImplementedError

    def code_span(self, code: str) -> str:
        raise NotImplementedError

    def link(self, target: str, inside: Sequence[Token]) -> None:
        """Draw a link to `target` whose text is the `inside` tokens (the line is started)."""
        raise NotImplementedError

    def line_prefix(self) -> str:
        """What starts each line here (a quote's marker, say); nothing by default."""
        return ""

    def quote_opened(self) -> None:
        """A quote began (`self.quotes` counts the open ones)."""

    def quote_closed(self) -> None:
        """A quote ended."""

    # The walk every chat shares.

    def block(self, token: Token) -> None:
        kind = token.type
        if kind == "inline":
            self.inline(token.children or [])
        elif kind in ("fence", "code_block"):
            self.start_line()
            self.parts.append(self.code_block(token.content.rstrip("\n")))
            self.newline()
        elif kind == "hr":
            self.write(RULE)
            self.newline()
        elif kind == "heading_open":
            self.heading = True
        elif kind in ("heading_close", "paragraph_close", "tr_close"):
            self.heading = False
            self.end_line()
        elif kind in ("th_open", "td_open") and self.line_started:
            self.write(" │ ")
        elif kind in ("bullet_list_open", "ordered_list_open"):
            self.lists.opened(token)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.closed()
        elif kind == "list_item_open":
            self.marker = self.lists.next_marker()
            self.depth += 1
        elif kind == "list_item_close":
            self.depth -= 1
        elif kind == "blockquote_open":
            self.quotes += 1
            self.quote_opened()
        elif kind == "blockquote_close":
            self.quotes -= 1
            self.quote_closed()
        ends_a_block = kind.endswith("_close") or kind in ("fence", "code_block", "hr")
        if ends_a_block and token.level == 0 and self.quotes == 0:
            self.newline()  # a blank line between top-level blocks

    def inline(self, children: Sequence[Token]) -> None:
        opening, closing = self.heading_marks if self.heading else ("", "")
        if opening:
            self.start_line()
            self.parts.append(opening)
        self.run(children)
        self.parts.append(closing)

    def run(self, tokens: Sequence[Token]) -> None:
        """A run of inline tokens; any markup opened in it is closed by its end."""
        closing: list[str] = []
        index = 0
        while index < len(tokens):
            token = tokens[index]
            kind = token.type
            if kind in self.inline_marks:
                opening, close = self.inline_marks[kind]
                self.start_line()
                self.parts.append(opening)
                closing.append(close)
            elif kind.endswith("_close") and kind.replace("_close", "_open") in self.inline_marks:
                self.parts.append(closing.pop())
            elif kind == "link_open":  # links do not nest: the next link_close ends this one
                end = next(
                    (at for at in range(index, len(tokens)) if tokens[at].type == "link_close"),
                    len(tokens),
                )
                self.start_line()
                self.link(str(token.attrGet("href") or ""), tokens[index + 1 : end])
                index = end
            elif kind == "code_inline":
                self.start_line()
                self.parts.append(self.code_span(token.content))
            elif kind == "softbreak":
                self.write(" ")
            elif kind == "hardbreak":
                self.newline()
            else:  # text, and anything else markdown-it keeps as text (raw HTML is disabled)
                self.write(token.content)
            index += 1
        self.parts.extend(reversed(closing))

    def start_line(self) -> None:
        if self.line_started:
            return
        self.line_started = True
        self.parts.append(self.line_prefix())
        if self.depth:
            self.parts.append(self.indent * (self.depth - 1))
            self.parts.append(self.indent if self.marker is None else self.marker)
            self.marker = None

    def write(self, text: str) -> None:
        if text:
            line_start = not self.line_started
            self.start_line()
            self.parts.append(self.escaped(text, line_start=line_start))

    def newline(self) -> None:
        self.parts.append("\n")
        self.line_started = False

    def end_line(self) -> None:
        if self.line_started:
            self.newline()

    def finished(self) -> str:
        text = "".join(self.parts)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text.strip("\n")
