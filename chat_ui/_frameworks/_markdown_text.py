"""Agent text for front ends that render markdown themselves (Gradio, Streamlit).

The NiceGUI chat renders agent markdown with our own markdown-it, which shows raw HTML as text and
draws no images. Gradio and Streamlit render a message's markdown in the browser, with renderers that
also know HTML (Gradio sanitizes it, which still draws an `<img>`), math (`$...$`, `$$...$$`) and,
in Streamlit, shortcodes (`:smile:`, `:red[...]`). So what they are given is escaped first, with
CommonMark's backslash escapes, which every one of those renderers reads:

- `plain_markdown`: the agent's markdown, still markdown, but its HTML, math and images shown as the
  characters they are (code is left alone: a renderer shows it as written);
- `markdown_literal`: text that is not markdown at all (a question, a label, what the person typed),
  shown exactly as written.

Only the characters that would change what is shown are escaped: Gradio reads a message's markdown
source out loud as its accessible name, where every backslash is heard.
"""

from __future__ import annotations

import re

from present_choices._markdown import markdown_parser

_UNESCAPED = r"(?<!\\)((?:\\\\)*)"
"""What precedes a character that no backslash escapes: none, or an even number of them."""
_MARKUP_IN_TEXT = re.compile(_UNESCAPED + r"(<|\$|!(?=\[))")
_SHORTCODE_IN_TEXT = re.compile(_UNESCAPED + r"(:)(?!//)")
"""Colons, which make `:smile:` and `:red[...]` (both of a shortcode's must be escaped); not the one
of `https://`, which autolinks."""
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]<>&|~$])")
_LINE_START_SPECIAL = re.compile(r"^(\s*)([#>+=-]|\d+(?=[.)]))", re.MULTILINE)
_COLON = re.compile(r":")


def plain_markdown(markdown: str, *, shortcodes: bool = False) -> str:
    """`markdown` with its raw HTML, its math delimiters and its images escaped outside code, so
    that a renderer shows them as the characters they are, as `render_markdown` does. With
    `shortcodes`, `:smile:` and `:red[...]` too (Streamlit)."""
    patterns = [_MARKUP_IN_TEXT, _SHORTCODE_IN_TEXT] if shortcodes else [_MARKUP_IN_TEXT]
    code_lines = _code_block_lines(markdown)
    lines = markdown.split("\n")
    return "\n".join(
        line if number in code_lines else _escape_outside_code_spans(line, patterns)
        for number, line in enumerate(lines)
    )


def markdown_literal(text: str, *, shortcodes: bool = False) -> str:
    """`text` as markdown that shows exactly `text`. With `shortcodes`, colons are escaped too, for
    renderers that turn `:smile:` into an emoji (Streamlit)."""
    escaped = _INLINE_SPECIAL.sub(r"\\\1", text)
    escaped = _LINE_START_SPECIAL.sub(_escape_line_start, escaped)
    return _COLON.sub(r"\\:", escaped) if shortcodes else escaped


def _escape_line_start(match: re.Match[str]) -> str:
    indent, marker = match.group(1), match.group(2)
    if marker.isdigit():  # an ordered list's number: escape the dot or parenthesis after it
        return f"{indent}{marker}\\"
    return f"{indent}\\{marker}"


def _code_block_lines(markdown: str) -> set[int]:
    """The lines (0-based) of `markdown` inside fenced or indented code blocks."""
    lines: set[int] = set()
    for token in markdown_parser().parse(markdown):
        if token.type in ("fence", "code_block") and token.map:
            lines.update(range(*token.map))
    return lines


def _escape_outside_code_spans(line: str, patterns: list[re.Pattern[str]]) -> str:
    def escape(text: str) -> str:
        for pattern in patterns:
            text = pattern.sub(r"\1\\\2", text)
        return text

    parts: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(line):
        parts.extend([escape(line[position : span.start()]), span.group(0)])
        position = span.end()
    parts.append(escape(line[position:]))
    return "".join(parts)
