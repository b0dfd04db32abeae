"""A plug-in keeps its own section in the settings file (a bot's token, its chat): read with the
environment winning, saved without touching anything else, kept when the person's settings are
saved, and never part of the settings a surface shows."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from provide_choice._contract._setting_changes import shown_settings
from provide_choice._settings_file import load_settings, save_changes
from provide_choice.transports import SectionNotSaved, plugin_settings, save_plugin_settings

VARIABLES = {"token": "PROVIDE_CHOICE_EXAMPLE_TOKEN", "chat_id": "PROVIDE_CHOICE_EXAMPLE_CHAT"}


def test_a_section_is_read_with_the_environment_winning(home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text(json.dumps({"timeout_action": "return_nothing", "example": {"token": "t"}}))
    assert plugin_settings("example", VARIABLES, environ={}) == {"token": "t"}
    environ = {"PROVIDE_CHOICE_EXAMPLE_CHAT": " 42 ", "PROVIDE_CHOICE_EXAMPLE_TOKEN": ""}
    assert plugin_settings("example", VARIABLES, environ=environ) == {"token": "t", "chat_id": "42"}
    assert plugin_settings("missing", VARIABLES, environ={}) == {}


def test_a_missing_or_broken_file_is_an_empty_section(home: Path) -> None:
    assert plugin_settings("example", environ={}) == {}
    (home / "settings.json").write_text("{not json")
    assert plugin_settings("example", environ={}) == {}
    (home / "settings.json").write_text(json.dumps({"example": ["not", "an", "object"]}))
    assert plugin_settings("example", environ={}) == {}


def test_saving_a_section_keeps_everything_else_and_is_private(home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text(
        json.dumps({"language": "zh-Hans", "example": {"token": "t"}, "other": {"x": 1}})
    )
    assert save_plugin_settings("example", {"chat_id": 42}) == settings
    assert json.loads(settings.read_text()) == {
        "language": "zh-Hans",
        "example": {"token": "t", "chat_id": 42},
        "other": {"x": 1},
    }
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert load_settings().language == "zh-Hans"


def test_saving_the_settings_keeps_every_section(home: Path) -> None:
    save_plugin_settings("example", {"token": "secret-token", "chat_id": 42})
    save_changes({"timeout_action": "return_nothing"})
    stored = json.loads((home / "settings.json").read_text())
    assert stored["example"] == {"token": "secret-token", "chat_id": 42}
    assert stored["timeout_action"] == "return_nothing"


def test_a_section_never_reaches_what_a_surface_shows(home: Path) -> None:
    save_plugin_settings("example", {"token": "secret-token"})
    shown = json.dumps(shown_settings(load_settings()))
    assert "secret-token" not in shown
    assert "example" not in shown


def test_regression_a_file_that_cannot_be_read_is_never_overwritten(home: Path) -> None:
    settings = home / "settings.json"
    settings.write_text("{half a file")
    with pytest.raises(SectionNotSaved, match="not a settings file this version can read"):
        save_plugin_settings("example", {"chat_id": 42})
    assert settings.read_text() == "{half a file"
