"""The environment of a `provide-choice` process in the alert tests: the test's data directory,
fast prompts, and nothing from the machine that would change where alerts go (which terminal
this is, a session bus, push addresses) or whether the process asks at all (`CI`: `serve` and
`ask` answer at once, unattended, where it is set). A test adds back what it stands for."""

from __future__ import annotations

import os
from pathlib import Path

LEFT_OUT = (
    "TERM_PROGRAM",
    "TMUX",
    "LC_TERMINAL",
    "KITTY_WINDOW_ID",
    "VTE_VERSION",
    "WT_SESSION",
    "DBUS_SESSION_BUS_ADDRESS",
    "PROVIDE_CHOICE_NOTIFY",
    "CI",
)


def environment(home: Path, **variables: str) -> dict[str, str]:
    kept = {name: value for name, value in os.environ.items() if name not in LEFT_OUT}
    fixed = {"PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "AGENT_CHOICES_HOME": str(home)}
    return kept | fixed | variables
