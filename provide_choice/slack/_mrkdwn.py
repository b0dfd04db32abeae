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

from present_choices._chat_markup import ChatMarkup

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
INLINE_MARKERS = {"strong_open": ("*", "*"), "em_open": ("_", "_"), "s_open": ("~", "~")}
"""Inline markup by the token that opens it: its opening and closing markers."""


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
    return _Mrkdwn.render(markdown)


class _Mrkdwn(ChatMarkup):
    indent = "    "
    inline_marks = INLINE_MARKERS
    heading_marks = ("*", "*")

    def escaped(self, text: str, *, line_start: bool) -> str:
        shown = escaped(text)
        if not line_start and shown.startswith(SOFT_HYPHEN):
            return shown[1:]  # mid-line, `&gt;` quotes nothing
        return shown

    def code_block(self, code: str) -> str:
        return f"```\n{_code(code)}\n```"

    def code_span(self, code: str) -> str:
        return f"`{_code(code)}`"

    def link(self, target: str, inside: Sequence[Token]) -> None:
        """A link as Slack's `<target|text>` (its text plain), or its text and target in words
        for a scheme a phone should not open."""
        text = "".join(token.content for token in inside)
        if target.startswith(LINK_SCHEMES):
            label = entities(text or target).translate(LOOK_ALIKES).replace("|", "¦")
            address = entities(target).replace("|", "%7C")
            self.parts.append(f"<{address}|{label}>")
        else:
            self.write(f"{text} ({target})" if target and target != text else text)

    def line_prefix(self) -> str:
        return "&gt; " if self.quotes else ""
