"""English words left on a surface that speaks another language: what a walk through a Chinese
surface must find none of.

A surface in Chinese may still show some Latin letters: the names of products and protocols (MCP,
JSON, AG-UI), the keys a person presses (Enter, Tab, Ctrl-C, a letter key), addresses and paths,
commands, their options and syntax, names in code (`present_choices`, `notify_urls`), a setting's
value as the settings file holds it (`auto`), a language named in its own language ("English"), and the agent's own text, shown as
written (each test passes it). Anything else is a message of ours left untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ALLOWED = frozenset(
    {
        # products and protocols
        "provide-choice",
        "choices-chat",
        "agent-choices",
        "MCP",
        "JSON",
        "AG-UI",
        "HTTP",
        "Redis",
        "Slack",
        "Telegram",
        # keys
        "Enter",
        "Tab",
        "Space",
        "Esc",
        "Ctrl-C",
        "Shift-Tab",
        "Shift",
        # a setting's value as the settings file holds it
        "auto",
        # a language named in its own language
        "English",
    }
)
_NOT_WORDS = [
    re.compile(r"\b(?:provide-choice|choices-chat)(?: [a-z][a-z-]*\b)?"),  # a command
    re.compile(r"\b[A-Za-z]\w*_\w+"),  # a name in code: present_choices, notify_urls
    re.compile(r"\b[a-z][\w+.-]*://\S*"),  # addresses
    re.compile(r"(?<![\w/])/[\w./~-]+"),  # paths
    re.compile(r"\[-[^\]]*\]"),  # a usage's syntax: [-h] [--limit N]
    re.compile(r"(?<![\w-])--?[a-z][\w-]*"),  # options
]
_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019-]*[A-Za-z]|[A-Za-z]")


def english_left(text: str, agent_text: Iterable[str] = ()) -> list[str]:
    """The English words of `text` that are none of the allowed ones (a single letter is a key:
    `n`, `g`), the agent's own text taken out first."""
    for piece in sorted(agent_text, key=len, reverse=True):
        text = text.replace(piece, " ")
    for pattern in _NOT_WORDS:
        text = pattern.sub(" ", text)
    return [word for word in _WORD.findall(text) if word not in ALLOWED and len(word) > 1]
