"""Settings persist between runs in one JSON file; a broken file never stops a question."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import platformdirs
import pytest

from present_choices import ChoicesError
from provide_choice import InteractionSettings, load_settings, save_settings, settings_path
from provide_choice._contract._setting_changes import apply_changes


def test_missing_file_means_defaults_without_a_warning(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert load_settings() == InteractionSettings()
    assert capsys.readouterr().err == ""


def test_saved_settings_load_in_the_next_run(home: Path) -> None:
    changed = InteractionSettings(
        transport="terminal",
        timeout_override_seconds=900,
        single_submit=False,
        annotations=False,
        placeholder_visible=False,
        timeout_action="return_nothing",
        keep_history=False,
        history_days=7,
        language="zh-CN",
    )
    save_settings(changed)
    assert settings_path() == home / "settings.json"
    assert json.loads((home / "settings.json").read_text()) == {
        "transport": "terminal",
        "timeout_override_seconds": 900,
        "single_submit": False,
        "annotations": False,
        "placeholder_visible": False,
        "timeout_action": "return_nothing",
        "keep_history": False,
        "history_days": 7,
        "unattended_action": "return_defaults",
        "away_until": None,
        "alerts": {"terminal": True, "desktop": True, "browser": True, "push": True},
        "alert_after_seconds": 0,
        "notify_urls": [],
        "notify_detail": "full",
        "language": "zh-CN",
    }
    assert load_settings() == changed


def test_without_the_override_the_file_is_in_the_user_config_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("AGENT_CHOICES_HOME", raising=False)
    expected = (
        Path(platformdirs.user_config_dir("agent-choices", appauthor=False)) / "settings.json"
    )
    assert settings_path() == expected


def test_save_replaces_the_file_whole_and_leaves_no_temporary_files(home: Path) -> None:
    save_settings(InteractionSettings(transport="web"))
    save_settings(InteractionSettings(transport="terminal"))
    assert [path.name for path in home.iterdir()] == ["settings.json"]
    assert load_settings().transport == "terminal"


def test_save_creates_the_directory_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The settings' directory was made 755 (the file itself was 600 already).
    home = tmp_path / "new" / "home"
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(home))
    save_settings(InteractionSettings(annotations=False))
    assert load_settings().annotations is False
    modes = [stat.S_IMODE(path.stat().st_mode) for path in (home.parent, home, settings_path())]
    assert modes == [0o700, 0o700, 0o600]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "is not valid JSON"),
        (
            '{"transport": "fax"}',
            "has invalid values (transport must be one of 'auto', 'terminal', 'web', 'elicitation', 'app', 'slack' or 'telegram', got 'fax')",
        ),
        ('{"timeout_override_seconds": 0}', "has invalid values ("),
        ("[1, 2]", "has invalid values (request must be an object, got a list)"),
    ],
)
def test_corrupt_file_falls_back_to_defaults_with_one_warning_line(
    home: Path, capsys: pytest.CaptureFixture[str], content: str, problem: str
) -> None:
    (home / "settings.json").write_text(content)
    assert load_settings() == InteractionSettings()
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1
    assert warning.startswith(
        f"provide-choice: warning: settings file {home / 'settings.json'} {problem}"
    )
    assert warning.endswith("; using default settings\n")


def test_unreadable_file_falls_back_to_defaults_with_a_warning(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "settings.json").mkdir()
    assert load_settings() == InteractionSettings()
    assert "cannot be read (Is a directory)" in capsys.readouterr().err


def test_unknown_keys_from_a_newer_version_are_ignored(home: Path) -> None:
    (home / "settings.json").write_text('{"transport": "web", "theme": "dark"}')
    assert load_settings() == InteractionSettings(transport="web")


def test_a_failed_save_warns_instead_of_failing_the_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(blocker / "home"))
    save_settings(InteractionSettings(transport="web"))
    assert "could not save settings to" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [blocker]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"timeout_override_seconds": 1' + "0" * 400 + "}", "has invalid values ("),
        ('{"timeout_override_seconds": ' + "9" * 5000 + "}", "cannot be parsed (ValueError)"),
        ("[" * 100_000 + "]" * 100_000, "is larger than 64 KB"),
        ("[" * 20_000 + "]" * 20_000, "cannot be parsed (RecursionError)"),
        ('{"timeout_override_seconds": 86401}', "has invalid values ("),
    ],
)
def test_regression_a_file_with_values_past_the_limits_means_the_defaults(
    home: Path, capsys: pytest.CaptureFixture[str], content: str, problem: str
) -> None:
    # A saved timeout of 1 followed by 400 zeros, a 5,000-digit number or 100,000-deep nesting
    # made every provide_choice call fail until the file was deleted.
    (home / "settings.json").write_text(content, encoding="utf-8")
    assert load_settings() == InteractionSettings()
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1
    assert problem in warning


def test_a_file_that_is_not_utf8_means_the_defaults(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "settings.json").write_bytes(b'{"transport": "w\xe9b"}')
    assert load_settings() == InteractionSettings()
    assert "is not UTF-8 text" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", [1, 86_400])
def test_the_timeout_override_at_its_limits_is_kept(home: Path, seconds: int) -> None:
    save_settings(InteractionSettings(timeout_override_seconds=seconds))
    assert load_settings().timeout_override_seconds == seconds


@pytest.mark.parametrize("days", [1, 3_650])
def test_history_days_at_their_limits_are_kept(home: Path, days: int) -> None:
    save_settings(InteractionSettings(history_days=days))
    assert load_settings().history_days == days


@pytest.mark.parametrize("days", [0, 3_651, 10**400])
def test_history_days_past_their_limits_mean_the_defaults_with_the_range(
    home: Path, capsys: pytest.CaptureFixture[str], days: int
) -> None:
    (home / "settings.json").write_text(f'{{"history_days": {days}}}', encoding="utf-8")
    assert load_settings().history_days == 30
    warning = capsys.readouterr().err
    assert warning.count("\n") == 1
    assert "history_days" in warning


def test_history_is_kept_30_days_unless_the_person_says_otherwise() -> None:
    settings = InteractionSettings()
    assert (settings.keep_history, settings.history_days) == (True, 30)


@pytest.mark.parametrize("language", ["auto", "en", "zh-Hans", "zh-CN", "pt_BR"])
def test_the_language_is_auto_or_a_language_tag(language: str) -> None:
    changed, _ = apply_changes(InteractionSettings(), {"language": language})
    assert changed.language == language


@pytest.mark.parametrize("language", ["", "chinese please", "<b>", 5])
def test_anything_else_is_refused_saying_what_is_allowed(language: object) -> None:
    with pytest.raises(ChoicesError) as refused:
        apply_changes(InteractionSettings(), {"language": language})
    assert "language" in refused.value.problems[0]
