"""Agent text as every alert carries it: plain text, clipped, with nothing in it that acts.

A title or a prompt comes from the agent. In a terminal an ESC in it would start a sequence of its
own; a notification server that reads markup, or a push service that reads markdown, would draw it
as such. So every alert takes agent text through here first: control characters (C0, DEL, C1) and
the bidirectional controls that reorder a line are removed, and what is left is clipped. Markup
is left as the characters it is; each channel passes it on as text (`_desktop` escapes it where
the notification server reads markup, `_push` sends it as text).
"""

from __future__ import annotations

import re

from present_choices._controls import BIDIRECTIONAL_CONTROLS

TITLE_LIMIT = 100
"""Characters of a title an alert shows at most (the terminal's notification, the desktop's, a
push alert's title)."""
ELLIPSIS = "…"
_CONTROLS = dict.fromkeys((*range(0x20), 0x7F, *range(0x80, 0xA0), *BIDIRECTIONAL_CONTROLS))
_SPACES = re.compile(r"\s+")


def plain_line(text: str, limit: int = TITLE_LIMIT) -> str:
    """`text` on one line (line breaks and tabs become spaces), without control characters, at
    most `limit` characters (the last one an ellipsis when it was cut)."""
    return clipped(_SPACES.sub(" ", text).translate(_CONTROLS).strip(), limit)


def plain_text(text: str, limit: int) -> str:
    """`text` with its lines kept, without other control characters, at most `limit` characters."""
    lines = [line.replace("\t", " ").translate(_CONTROLS).rstrip() for line in text.splitlines()]
    return clipped("\n".join(lines).strip(), limit)


def clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS
