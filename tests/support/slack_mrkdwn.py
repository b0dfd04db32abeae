"""Slack's mrkdwn as a person reads it, for the stand-in Slack: what a text object shows, which
parts of it are styled, and what in it Slack would turn into a mention, a link or an emoji.

It follows Slack's documented rules: `&amp;`, `&lt;` and `&gt;` are the only entities read;
`<...>` is a control sequence (`<@U123>` and `<!here>` mention, `<#C123>` names a channel,
`<https://...|text>` links, `<!date^...|fallback>` shows its fallback as plain text); `*bold*`,
`_italic_`, `~strike~` and `` `code` `` style a run of text only where the markers stand at word
boundaries (a marker with a space inside, or letters outside, styles nothing); a line starting
with `>` is a quote; `:name:` is an emoji. A test reads what the plug-in sent through it, so
agent text that would turn into formatting, a mention or an emoji is caught as Slack would show it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">"}
CONTROL = re.compile(r"<([^<>]*)>")
MARKERS = {"*": "bold", "_": "italic", "~": "strike"}
CODE = re.compile(r"```\n?(.*?)\n?```|(?<![^\W_])`([^`\n]+)`(?![^\W_])", re.DOTALL)
EMOJI = re.compile(r":[a-z0-9_+\-']+:")
LITERAL_BASE = 0xF0000
"""Plane-15 private use: where the characters of literal text (a date's fallback) wait while
formatting is read, so that no marker in them counts."""


@dataclass
class Reading:
    """A text object as Slack shows it."""

    text: str
    """What the person reads: entities decoded, markers of styled runs gone."""
    styled: list[tuple[str, str]] = field(default_factory=list)
    """Each styled run: its style (`bold`, `italic`, `strike`, `code`, `quote`) and its text."""
    mentions: list[str] = field(default_factory=list)
    """Every mention (`@U123`, `@here`, `#C123`)."""
    links: list[tuple[str, str]] = field(default_factory=list)
    """Every link: its target and its text."""
    emoji: list[str] = field(default_factory=list)


def read_mrkdwn(raw: str, *, verbatim: bool = False) -> Reading:
    """`raw` mrkdwn as Slack shows it. Without `verbatim`, a bare `@here`, `@channel` or
    `@everyone` is a mention too (Slack parses it)."""
    reading = Reading("")
    literals: list[str] = []

    def control(found: re.Match[str]) -> str:
        inside = found.group(1)
        target, _, label = inside.partition("|")
        if target.startswith("!date^"):
            literals.append(decoded(label))
            return chr(LITERAL_BASE + len(literals) - 1)
        if target.startswith(("@", "#")):
            reading.mentions.append(target)
            return label or target
        if target.startswith("!"):
            reading.mentions.append("@" + target[1:].split("^")[0])
            return label or "@" + target[1:]
        reading.links.append((decoded(target), decoded(label or target)))
        return label or target

    if not verbatim:
        bare = CONTROL.sub(" ", raw)
        reading.mentions += re.findall(r"(?<!\w)@(?:here|channel|everyone)\b", bare)

    def code(found: re.Match[str]) -> str:
        inside = found.group(1) or found.group(2)
        reading.styled.append(("code", decoded(inside)))
        literals.append(decoded(inside))
        return chr(LITERAL_BASE + len(literals) - 1)

    def date(found: re.Match[str]) -> str:
        return control(found) if found.group(1).startswith("!date^") else found.group(0)

    raw = CONTROL.sub(date, raw)  # a date's fallback first: plain text, whatever it holds
    raw = CODE.sub(code, raw)  # Slack styles nothing inside code, nor reads its controls
    text = CONTROL.sub(control, raw)
    lines = []
    for line in text.split("\n"):
        if line.startswith(("&gt;", ">")):
            line = line.removeprefix("&gt;").removeprefix(">").lstrip(" ")
            reading.styled.append(("quote", line))
        lines.append(line)
    text = "\n".join(lines)
    for marker, style in MARKERS.items():
        text = _styled(text, marker, style, reading)
    reading.emoji = EMOJI.findall(text)
    text = decoded(text)

    def shown(part: str) -> str:
        return "".join(
            literals[ord(c) - LITERAL_BASE] if ord(c) >= LITERAL_BASE else c for c in part
        )

    reading.text = shown(text)
    reading.styled = [(style, shown(part)) for style, part in reading.styled]
    return reading


def _styled(text: str, marker: str, style: str, reading: Reading) -> str:
    m = re.escape(marker)
    pattern = re.compile(rf"(?<![^\s\W_])(?<!{m}){m}(?=\S)(.+?)(?<=\S){m}(?![^\s\W])")
    if marker != "_":  # `_` is a word character: an underscore inside a word styles nothing
        pattern = re.compile(rf"(?<![^\W_]){m}(?=[^\s{m}])(.+?)(?<=[^\s{m}]){m}(?![^\W_])")

    def replace(found: re.Match[str]) -> str:
        reading.styled.append((style, decoded(found.group(1))))
        return found.group(1)

    return pattern.sub(replace, text)


def decoded(text: str) -> str:
    for entity, character in ENTITIES.items():
        text = text.replace(entity, character)
    return text
