"""`chat_ui` loads on first use (issue 38): importing it, or a floor that imports no UI framework,
loads none of the heavy parts. Each rule runs in a fresh Python, which lists what it has loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

HEAVY = ["nicegui", "fastapi", "starlette", "pydantic_ai", "redis", "ag_ui"]
"""What a program that never draws a NiceGUI page, asks a model or opens Redis does without."""


def loaded_after(code: str) -> list[str]:
    """Which of `HEAVY` a fresh Python has loaded once it has run `code`."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    listing = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", listing],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        check=True,
    )
    modules = json.loads(result.stdout.splitlines()[-1])
    return [name for name in HEAVY if name in modules]


def test_importing_chat_ui_loads_nothing_heavy() -> None:
    assert loaded_after("import chat_ui") == []


@pytest.mark.parametrize(
    "floor", ["chat_ui._model", "chat_ui._agents", "chat_ui._stores", "chat_ui._session"]
)
def test_the_floors_under_the_front_ends_load_no_ui_framework(floor: str) -> None:
    assert loaded_after(f"import {floor}") == []


def test_the_floors_under_the_front_ends_together_load_no_nicegui() -> None:
    """The check issue 37 names, word for word."""
    code = "import chat_ui._model, chat_ui._agents, chat_ui._stores, sys; print('nicegui' in sys.modules)"
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=environment
    )
    assert result.stdout == "False\n", result.stderr


def test_the_rules_load_without_nicegui() -> None:
    assert loaded_after("from chat_ui import Message, ReplyChunk, block_state, conversation") == []


def test_a_nicegui_name_loads_nicegui_when_used() -> None:
    assert "nicegui" in loaded_after("from chat_ui import ChatView")
