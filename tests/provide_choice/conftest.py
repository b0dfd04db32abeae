"""Every provide_choice test reads and writes the person's settings in a directory of its own (and
runs attended: the root conftest drops what would make `provide-choice` unattended)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`$AGENT_CHOICES_HOME` for this test: settings (and whatever else) never touch the real one."""
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    return tmp_path
