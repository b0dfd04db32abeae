"""Agent text and agent markdown as Slack's mrkdwn, where nothing an agent writes turns into
formatting, a mention, a link or an emoji of Slack's.

Slack reads `&`, `<` and `>` as control characters: they go as `&amp;`, `&lt;`, `&gt;`, as Slack
documents, so no `<@U123>`, `<!here>` or `<https://...>` can come from agent text (and the text
objects are `verbatim`, so a bare `@here` or `#channel` stays text). mrkdwn has no escape for its
formatting markers (`*`, `_`, `~`, `` ` ``) nor for an emoji's `:name:`: an agent's marker that
could open or close a styled run (one beside a space, a punctuation mark or an end) goes as a
date whose fallback text is that character (`<!date^0^{_}|*>`: Slack shows the fallback of a date
it cannot format as plain text, never formatted), the known way to show one literally; inside a
link's text, where that does not work, as a look-alike. A line of agent text that starts with
`&gt;` (Slack's quote) starts with an invisible soft hyphen.

`slack_mrkdwn(markdown)` draws agent markdown with Slack's own markers (bold, italic, strike, code,
quotes, lists, links for the schemes a phone opens safely), reading the tokens of the one
markdown-it set-up every surface uses (`present_choices.markdown_parser`), so a prompt means the
same here as on the page, in a terminal or in Telegram.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from present_choices import markdown_parser

if TYPE_CHECKING:
    from markdown_it.token import Token

MARKERS = "*_~`"
LITERAL = "<!date^0^{{_}}|{}>"
"""A character shown as it is: a date Slack cannot format, whose fallback text it is."""
GRAVE = "\u02cb"
"""MODIFIER LETTER GRAVE ACCENT: a backtick that ends no code span."""
LOOK_ALIKES = str.maketrans({"*": "\u2217", "_": "\u02cd", "~": "\u223c", "`": GRAVE})
"""For link texts and code, where a date's fallback does not help."""
EMOJI = re.compile(r":(?=[a-z0-9_+\-']+:)")
SOFT_HYPHEN = "\u00ad"
LINK_SCHEMES = ("http://", "https://", "mailto:")
INLINE_MARKERS = {"strong_open": "*", "em_open": "_", "s_open": "~"}
BULLET = "• "
RULE = "———"


def entities(text: str) -> str:
    """`&`, `<` and `>` as Slack's entities: all a `plain_text` object needs."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escaped(text: str) -> str:
    """Agent text inside mrkdwn: shown as written, never formatted, mentioning nobody."""
    text = entities(text)
    shown = [
        LITERAL.format(character) if _would_format(text, index) else character
        for index, character in enumerate(text)
    ]
    return "\n".join(_unquoted(line) for line in "".join(shown).split("\n"))


def bold(text: str) -> str:
    return f"*{escaped(text)}*"


def italic(text: str) -> str:
    return f"_{escaped(text)}_"


def _would_format(text: str, index: int) -> bool:
    """Whether the character at `index` could be read as markup: a marker that could open or
    close a styled run (not between two letters), or the colon opening an emoji's name."""
    if text[index] == ":":
        return EMOJI.match(text, index) is not None
    if text[index] not in MARKERS:
        return False
    before = text[index - 1] if index > 0 else " "
    after = text[index + 1] if index + 1 < len(text) else " "
    return not (before.isalnum() and after.isalnum())


def _unquoted(line: str) -> str:
    return SOFT_HYPHEN + line if line.startswith("&gt;") else line


def _code(text: str) -> str:
    """Text inside a code span or block: Slack styles nothing there, but a backtick ends it."""
    return entities(text).replace("`", GRAVE)


def slack_mrkdwn(markdown: str) -> str:
    """Agent markdown as mrkdwn: blocks separated by a blank line, lists with their markers,
    quotes as Slack's, code as code blocks, headings in bold."""
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
            self.parts.append(f"```\n{_code(token.content.rstrip(chr(10)))}\n```")
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
        elif kind == "blockquote_close":
            self.quotes -= 1
        ends_a_block = kind.endswith("_close") or kind in ("fence", "code_block", "hr")
        if ends_a_block and token.level == 0 and self.quotes == 0:
            self.newline()  # a blank line between top-level blocks

    def inline(self, children: Sequence[Token]) -> None:
        closing: list[str] = ["*"] if self.heading else []
        if self.heading:
            self.start_line()
            self.parts.append("*")
        for child in children:
            kind = child.type
            if kind in INLINE_MARKERS:
                self.start_line()
                self.parts.append(INLINE_MARKERS[kind])
                closing.append(INLINE_MARKERS[kind])
            elif kind.endswith("_close") and kind.replace("_close", "_open") in INLINE_MARKERS:
                self.parts.append(closing.pop())
            elif kind == "link_open":
                self.link(child, children)
            elif kind == "code_inline":
                self.start_line()
                self.parts.append(f"`{_code(child.content)}`")
            elif kind == "softbreak":
                self.write(" ")
            elif kind == "hardbreak":
                self.newline()
            elif kind == "link_close":
                pass
            elif not self._inside_link(child, children):  # text, and what markdown-it keeps as text
                self.write(child.content)
        self.parts.extend(reversed(closing))

    def link(self, opening: Token, children: Sequence[Token]) -> None:
        """A link as Slack's `<target|text>` (its text plain), or its text and target in words
        for a scheme a phone should not open."""
        start = list(children).index(opening)
        inside = []
        for child in children[start + 1 :]:
            if child.type == "link_close":
                break
            inside.append(child.content)
        text, target = "".join(inside), str(opening.attrGet("href") or "")
        self.start_line()
        if target.startswith(LINK_SCHEMES):
            label = entities(text or target).translate(LOOK_ALIKES).replace("|", "¦")
            address = entities(target).replace("|", "%7C")
            self.parts.append(f"<{address}|{label}>")
        else:
            self.write(f"{text} ({target})" if target and target != text else text)

    @staticmethod
    def _inside_link(child: Token, children: Sequence[Token]) -> bool:
        depth = 0
        for token in children:
            if token is child:
                return depth > 0
            depth += {"link_open": 1, "link_close": -1}.get(token.type, 0)
        return False

    def start_line(self) -> None:
        if self.line_started:
            return
        self.line_started = True
        if self.quotes:
            self.parts.append("&gt; ")
        if self.indent:
            prefix = "    " * (self.indent - 1)
            if self.marker is not None:
                self.parts.append(prefix + self.marker)
                self.marker = None
            else:
                self.parts.append(prefix + "    ")

    def write(self, text: str) -> None:
        if text:
            starts = not self.line_started
            self.start_line()
            shown = escaped(text)
            if not starts and shown.startswith(SOFT_HYPHEN):
                shown = shown[1:]  # mid-line, `&gt;` quotes nothing
            self.parts.append(shown)

    def newline(self) -> None:
        self.parts.append("\n")
        self.line_started = False

    def finished(self) -> str:
        text = "".join(self.parts)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        return text.strip("\n")
