"""Agent markdown as terminal text: bold, italics, code, lists, quotes, headings and links, drawn
with prompt_toolkit styles instead of printed as `**raw**` asterisks.

It reads the tokens of the same markdown-it set-up that renders prompts as HTML on the page, so
both surfaces agree on what the markdown means. The result is formatted text, never escape
sequences written by us: prompt_toolkit shows any control character in agent text inert (`^[`).
"""

from __future__ import annotations

from collections.abc import Sequence

from markdown_it.token import Token
from prompt_toolkit.formatted_text import StyleAndTextTuples

from present_choices._markdown import ListMarkers, markdown_parser

INLINE_STYLES = {
    "strong_open": "bold",
    "em_open": "italic",
    "s_open": "strike",
    "link_open": "underline",
}
"""Inline markup by the token that opens it; the matching `_close` token ends it."""
CODE_STYLE = "class:markdown.code"
PREFIX_STYLE = "class:markdown.prefix"
QUOTE_BAR = "│ "
RULE = "─" * 24


def markdown_text(text: str) -> StyleAndTextTuples:
    """`text` (agent markdown) as styled lines for a prompt_toolkit control."""
    writer = _Writer()
    for token in markdown_parser().parse(text):
        writer.block(token)
    return writer.finished()


class _Writer:
    """Writes block tokens line by line: list markers and quote bars go at the start of each
    line of what they hold, and top-level blocks are separated by one blank line."""

    def __init__(self) -> None:
        self.parts: StyleAndTextTuples = []
        self.prefixes: list[str] = []
        self.lists = ListMarkers()
        """The markers of the items of the lists open now."""
        self.marker: str | None = None
        """The marker of a list item whose first line has not started yet."""
        self.line_started = False
        self.block_style = ""

    def block(self, token: Token) -> None:
        kind = token.type
        if kind == "inline":
            self.inline(token.children or [])
        elif kind in ("fence", "code_block"):
            for line in token.content.rstrip("\n").split("\n"):
                self.write(CODE_STYLE, "  " + line)
                self.newline()
        elif kind == "hr":
            self.write(PREFIX_STYLE, RULE)
            self.newline()
        elif kind == "heading_open":
            self.block_style = "bold underline" if token.tag == "h1" else "bold"
        elif kind in ("heading_close", "paragraph_close", "tr_close"):
            self.block_style = ""
            if self.line_started:
                self.newline()
        elif kind in ("th_open", "td_open") and self.line_started:
            self.write(PREFIX_STYLE, " │ ")
        elif kind in ("bullet_list_open", "ordered_list_open"):
            self.lists.opened(token)
        elif kind in ("bullet_list_close", "ordered_list_close"):
            self.lists.closed()
        elif kind == "list_item_open":
            self.marker = self.lists.next_marker()
            self.prefixes.append(" " * len(self.marker))
        elif kind == "blockquote_open":
            self.prefixes.append(QUOTE_BAR)
        elif kind in ("list_item_close", "blockquote_close"):
            self.prefixes.pop()
        ends_a_block = kind.endswith("_close") or kind in ("fence", "code_block", "hr")
        if ends_a_block and token.level == 0:
            self.newline()  # a blank line between top-level blocks

    def inline(self, children: Sequence[Token]) -> None:
        styles: list[str] = [self.block_style] if self.block_style else []
        links: list[tuple[str, int]] = []
        """Each open link's target, and where its text starts in `parts`."""
        for child in children:
            kind = child.type
            if kind in INLINE_STYLES:
                styles.append(INLINE_STYLES[kind])
                if kind == "link_open":
                    links.append((str(child.attrGet("href") or ""), len(self.parts)))
            elif kind.endswith("_close") and kind.replace("_close", "_open") in INLINE_STYLES:
                styles.pop()
                if kind == "link_close":
                    target, start = links.pop()
                    shown = "".join(part[1] for part in self.parts[start:])
                    if target not in (shown, f"mailto:{shown}"):  # an autolink shows it already
                        self.write(PREFIX_STYLE, f" ({target})")
            elif kind == "code_inline":
                self.write(CODE_STYLE, child.content)
            elif kind == "softbreak":
                self.write(" ".join(styles), " ")
            elif kind == "hardbreak":
                self.newline()
            else:  # text, and anything else markdown-it keeps as text (raw HTML is disabled)
                self.write(" ".join(styles), child.content)

    def write(self, style: str, text: str) -> None:
        if not text:
            return
        if not self.line_started:
            prefix = "".join(self.prefixes)
            if self.marker is not None:
                prefix = prefix[: len(prefix) - len(self.marker)] + self.marker
                self.marker = None
            if prefix:
                self.parts.append((PREFIX_STYLE, prefix))
            self.line_started = True
        self.parts.append((style, text))

    def newline(self) -> None:
        self.parts.append(("", "\n"))
        self.line_started = False

    def finished(self) -> StyleAndTextTuples:
        while self.parts and self.parts[-1] == ("", "\n"):
            self.parts.pop()
        return self.parts
