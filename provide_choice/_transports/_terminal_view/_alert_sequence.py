"""The terminal's own notification: the escape sequence that asks the terminal a question is drawn
in to tell the person, chosen by what the environment says the terminal is.

Terminals read different sequences: OSC 9 (iTerm2, Ghostty, WezTerm, Windows Terminal), OSC 777
`notify` (VTE terminals such as GNOME Terminal, foot, urxvt), OSC 99 (kitty); any other gets the
bell, which every terminal answers in its own way (a sound, a flash, a mark on its tab). Inside
tmux the sequence is passed through to the terminal around it (tmux must allow it:
`set -g allow-passthrough on`), which tmux hides in `$TERM_PROGRAM`: the outer terminal is read
from the variables it leaves (`$LC_TERMINAL`, `$KITTY_WINDOW_ID`, `$VTE_VERSION`, `$WT_SESSION`).
The text is agent text made plain (`plain_line`): no ESC or BEL of the agent's ever reaches the
terminal.

tmux's `allow-passthrough` is off unless the person turned it on, and then every notification is
dropped without a trace: a terminal that draws questions inside such a tmux says so once as it
starts (`say_when_tmux_drops_alerts`), with the line to add to `~/.tmux.conf`.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping

from present_choices._translation import Translation
from provide_choice._alerts._text import plain_line
from provide_choice._notices import warn

ESC = "\x1b"
BEL = "\x07"
ST = ESC + "\\"
"""The string terminator that ends kitty's sequence (and tmux's passthrough)."""
APPLICATION = "provide-choice"
OSC_9_PROGRAMS = frozenset({"iTerm.app", "ghostty", "WezTerm"})
"""`$TERM_PROGRAM` of the terminals that show OSC 9 as a notification."""
OSC_777_TERMS = ("foot", "rxvt")
"""How `$TERM` starts in the terminals that read OSC 777 without saying so otherwise."""
TMUX_LINE = "set -g allow-passthrough on"
"""The line of `~/.tmux.conf` that lets the terminal's notification through tmux."""
TMUX_SECONDS = 2.0
"""How long tmux may take to say whether it lets notifications through."""


def terminal_alert(title: str, environ: Mapping[str, str]) -> str:
    """What to write to the terminal to have it notify the person of the question `title`."""
    sequence = _sequence(plain_line(title), environ)
    if environ.get("TMUX") and sequence != BEL:
        return f"{ESC}Ptmux;{sequence.replace(ESC, ESC + ESC)}{ST}"
    return sequence


def _sequence(text: str, environ: Mapping[str, str]) -> str:
    family = terminal_family(environ)
    if family == "osc9":
        return f"{ESC}]9;{text}{BEL}"
    if family == "osc777":  # its fields end at ';': one in the text would cut it
        return f"{ESC}]777;notify;{APPLICATION};{text.replace(';', ',')}{BEL}"
    if family == "osc99":
        return f"{ESC}]99;;{text}{ST}"
    return BEL


def terminal_family(environ: Mapping[str, str]) -> str:
    """Which notification the terminal reads: "osc9", "osc777", "osc99", or "bell" (any other).
    Inside tmux, `$TERM_PROGRAM` names tmux and `$TERM` tmux's own terminal type, so the outer
    terminal is recognized by what it leaves in the environment."""
    program = environ.get("TERM_PROGRAM", "")
    inside_tmux = bool(environ.get("TMUX"))
    if environ.get("KITTY_WINDOW_ID"):
        return "osc99"
    if (
        program in OSC_9_PROGRAMS
        or environ.get("WT_SESSION")
        or (inside_tmux and environ.get("LC_TERMINAL") == "iTerm2")
    ):
        return "osc9"
    if environ.get("VTE_VERSION"):
        return "osc777"
    if not inside_tmux and environ.get("TERM", "").startswith(OSC_777_TERMS):
        return "osc777"
    return "bell"


def say_when_tmux_drops_alerts(
    terminal_alerts: bool, translation: Translation, environ: Mapping[str, str] | None = None
) -> None:
    """Once, as a terminal that draws questions starts: when its alerts are on and the tmux it runs
    in drops them, say so, with the line that lets them through."""
    if terminal_alerts and tmux_drops_alerts(os.environ if environ is None else environ):
        warn(
            translation.gettext(
                "tmux drops this terminal's alerts (its allow-passthrough is off): add this line "
                "to ~/.tmux.conf, then run tmux source-file ~/.tmux.conf: {line}",
                line=TMUX_LINE,
            )
        )


def tmux_drops_alerts(environ: Mapping[str, str]) -> bool:
    """Whether the terminal's notification would be dropped by the tmux this runs in: its
    `allow-passthrough` is off for this pane. Not outside tmux, nor for a terminal that only gets
    the bell (tmux rings it without passthrough), nor when tmux cannot say (a tmux older than
    3.3 has no such option, and passes the sequence through)."""
    if not environ.get("TMUX") or terminal_family(environ) == "bell":
        return False
    pane = environ.get("TMUX_PANE")
    target = ["-t", pane] if pane else []
    try:
        shown = subprocess.run(
            ["tmux", "show-options", "-Av", *target, "allow-passthrough"],
            capture_output=True,
            text=True,
            timeout=TMUX_SECONDS,
            env=dict(environ),
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return shown.returncode == 0 and shown.stdout.strip() == "off"
