"""Every provide_choice test reads and writes the person's settings in a directory of its own, and
runs attended (as `attended_environment` gives a child), whatever the CI that runs it sets."""

from __future__ import annotations

from pathlib import Path

import pytest
from attended import UNATTENDED_VARIABLES


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`$AGENT_CHOICES_HOME` for this test: settings (and whatever else) never touch the real one.
    Without `CI` and the other variables that make `provide-choice` unattended, a command the
    test runs (`python -m provide_choice ask`) asks, as on a person's machine."""
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    for name in UNATTENDED_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return tmp_path
