"""Where `choices-chat` keeps conversations and its cookie secret, and what it does when it cannot."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs
import pytest

from chat_ui._command_line._storage import (
    SECRET_FILE_NAME,
    private_storage,
    storage_dir,
    storage_secret,
)


@pytest.fixture(autouse=True)
def no_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NICEGUI_STORAGE_PATH", raising=False)
    monkeypatch.delenv("AGENT_CHOICES_HOME", raising=False)


def test_nicegui_s_own_variable_wins_then_the_toolkit_home_then_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    user_data = Path(platformdirs.user_data_dir("agent-choices", appauthor=False))
    assert storage_dir() == user_data / "chat"
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path / "home"))
    assert storage_dir() == tmp_path / "home" / "chat"
    monkeypatch.setenv("NICEGUI_STORAGE_PATH", str(tmp_path / "nicegui"))
    assert storage_dir() == tmp_path / "nicegui"


def test_the_secret_is_made_once_kept_private_and_reused(tmp_path: Path) -> None:
    directory = tmp_path / "not" / "there" / "yet"
    first = storage_secret(directory)
    assert len(first) >= 32
    kept = directory / SECRET_FILE_NAME
    assert kept.read_text(encoding="ascii").strip() == first
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert storage_secret(directory) == first
    assert sorted(path.name for path in directory.iterdir()) == [SECRET_FILE_NAME]


def test_a_cut_off_secret_is_replaced(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE_NAME).write_text("short\n", encoding="ascii")
    secret = storage_secret(tmp_path)
    assert secret != "short"
    assert storage_secret(tmp_path) == secret


def test_an_unreadable_secret_gives_one_warning_and_a_secret_for_this_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / SECRET_FILE_NAME).mkdir()
    first, second = storage_secret(tmp_path), storage_secret(tmp_path)
    assert first != second, "nothing was kept, so every run has its own"
    warnings = capsys.readouterr().err.splitlines()
    assert len(warnings) == 2
    assert warnings[0] == (
        f"choices-chat: warning: cannot read the cookie secret {tmp_path / SECRET_FILE_NAME} "
        "(Is a directory); conversations last until this run stops"
    )


def test_a_directory_that_cannot_be_made_gives_a_warning_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("", encoding="ascii")
    assert len(storage_secret(tmp_path / "a-file" / "chat")) >= 32
    assert "(Not a directory); conversations last" in capsys.readouterr().err


def test_a_secret_that_cannot_be_saved_gives_a_warning_and_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    in_the_way = tmp_path / f".{SECRET_FILE_NAME}.{os.getpid()}.tmp"
    in_the_way.mkdir()  # where the secret is written before it is moved into place
    assert len(storage_secret(tmp_path)) >= 32
    assert "cannot save the cookie secret" in capsys.readouterr().err
    assert not (tmp_path / SECRET_FILE_NAME).exists()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_storage_and_the_data_directory_above_it_are_made_private(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The chat was the first to make the data directory, 755, for the MCP server's history too.
    home = tmp_path / "new" / "agent-choices"
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(home))
    assert private_storage() == home / "chat"
    assert (mode(home.parent), mode(home), mode(home / "chat")) == (0o700, 0o700, 0o700)
    assert capsys.readouterr().err == "", "nothing was open to others: nothing to say"


def test_regression_conversations_left_open_by_an_earlier_version_are_made_private_saying_so_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # storage-user-*.json, whole conversations, were 644 in a 755 directory.
    chat = tmp_path / "home" / "chat"
    chat.mkdir(parents=True)
    for directory in (chat.parent, chat):
        directory.chmod(0o755)
    conversation = chat / "storage-user-3f9c.json"
    conversation.write_text("{}")
    conversation.chmod(0o644)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(chat.parent))
    private_storage()
    assert (mode(chat.parent), mode(chat), mode(conversation)) == (0o700, 0o700, 0o600)
    assert capsys.readouterr().err == (
        f"choices-chat: made {chat.parent}, {chat} and 1 file in {chat} private (mode 700, files "
        "600): other users could read the conversations, questions, answers, tokens or settings "
        "they hold\n"
    )
    private_storage()
    assert capsys.readouterr().err == ""


def test_nicegui_s_own_storage_path_is_private_but_not_its_parent(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    tmp_path.chmod(0o755)
    monkeypatch.setenv("NICEGUI_STORAGE_PATH", str(tmp_path / "storage"))
    private_storage()
    assert (mode(tmp_path), mode(tmp_path / "storage")) == (0o755, 0o700)
