"""The environment of every `provide-choice` a test or a benchmark starts: attended, in a home of
its own.

`provide-choice serve` and `ask` answer every question at once, shown nowhere, where `CI` is true
(or `PROVIDE_CHOICE_UNATTENDED` is set, or `PROVIDE_CHOICE_ANSWERS` names an answers file). Our own
CI sets `CI=true`, and a test that starts a server expects it to ask: so a child gets the test's
environment without those, and with its own `AGENT_CHOICES_HOME`. A test of unattended runs puts
them back in `extra`.
"""

from __future__ import annotations

import os
from pathlib import Path

UNATTENDED_VARIABLES = ("CI", "PROVIDE_CHOICE_UNATTENDED", "PROVIDE_CHOICE_ANSWERS")


def attended_environment(home: Path | str, **extra: str) -> dict[str, str]:
    """This process's environment for a child that asks the person: without what makes
    `provide-choice` unattended, with settings and history in `home`, and `extra` on top."""
    inherited = {
        name: value for name, value in os.environ.items() if name not in UNATTENDED_VARIABLES
    }
    return {**inherited, "AGENT_CHOICES_HOME": str(home), **extra}
