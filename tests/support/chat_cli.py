"""Running `choices-chat`'s `main` in-process: with nothing served, or until it exits on a mistake."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest
from nicegui import ui

import chat_ui.__main__ as cli


def serve(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[Any, str]:
    """Run `main(argv)` with its page built at once and nothing served: the agent and subtitle.
    (The port is the caller's to patch: `cli._claim_port`.)"""
    shown: list[tuple[Any, str]] = []
    monkeypatch.setattr(ui, "page", lambda path, **options: lambda page: page())
    monkeypatch.setattr(
        cli, "chat_page", lambda agent, subtitle, language: shown.append((agent, subtitle))
    )
    monkeypatch.setattr(ui, "run", lambda **options: None)
    cli.main(argv)
    (served,) = shown
    return served


def exit_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What `main(argv)` says on stderr as it exits with status 2."""
    with pytest.raises(SystemExit) as caught:
        cli.main(argv)
    assert caught.value.code == 2
    return capsys.readouterr().err


def loaded_before_and_after(module: str, name: str) -> list[str]:
    """In a fresh Python: whether `module` is loaded after importing `chat_ui` and its command, then
    after using `chat_ui.<name>` (["False", "True"] for a name that loads it lazily)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    code = (
        f"import sys, chat_ui, chat_ui.__main__; loaded = {module!r} in sys.modules; "
        f"chat_ui.{name}; print(loaded, {module!r} in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        check=True,
    )
    return result.stdout.split()
