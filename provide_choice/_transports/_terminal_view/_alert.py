"""The terminal's own alert for the question it draws: its notification, or a bell.

It is written to the terminal the question is drawn on (the output of the flow's session: stderr
or the terminal itself for `provide-choice ask`, never stdout, which carries its JSON), once,
`alert_after_seconds` after the question appears unless the person pressed a key meanwhile, and
only while their settings leave the terminal's alerts on. What to write is `_alert_sequence`'s
choice, from what this process's environment says the terminal is.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager

from prompt_toolkit.application import get_app_session

from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._alert_sequence import terminal_alert


@contextmanager
def alerting(question: LiveQuestion, title: str) -> Iterator[None]:
    """While the flow shows `question` (titled `title`), alert the terminal once it has waited."""
    if not question.settings.alerts.terminal:
        yield
        return
    output = get_app_session().output

    def ring() -> None:
        if not question.touched and question.settings.alerts.terminal:
            output.write_raw(terminal_alert(title, os.environ))
            output.flush()

    delay = question.settings.alert_after_seconds
    timer = asyncio.get_running_loop().call_later(delay, ring)
    try:
        yield
    finally:
        timer.cancel()
