"""Private directories and files, made one way by the chat and the MCP server alike: 700 and 600,
whatever the umask, written whole, and tightened where an earlier version left them open."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from present_choices._private_files import (
    describe_tightened,
    private_directory,
    tighten,
    write_private,
    written_as,
)
from present_choices._translation import ENGLISH, translation


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture(params=[0o022, 0o000, 0o277], ids=["umask-022", "umask-000", "umask-277"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """A umask that would leave what is created open to others (or, 277, unusable by its owner)."""
    previous = os.umask(request.param)
    yield request.param
    os.umask(previous)


def test_every_missing_directory_is_made_700(tmp_path: Path, umask: int) -> None:
    # The chat made ~/.local/share/agent-choices and its chat/ 755, for the MCP server to use.
    target = tmp_path / "share" / "agent-choices" / "chat"
    assert private_directory(target) == target
    assert [mode(path) for path in (target.parent.parent, target.parent, target)] == [0o700] * 3
    private_directory(target)  # there already: nothing to do, nothing raised


def test_a_private_file_is_600_whole_and_replaces_the_old_one(tmp_path: Path, umask: int) -> None:
    path = tmp_path / "new" / "inbox.json"
    write_private(path, "first")
    write_private(path, "second")
    assert path.read_text() == "second"
    assert (mode(path), mode(path.parent)) == (0o600, 0o700)
    assert sorted(path.parent.iterdir()) == [path], "no temporary file stays behind"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    write_private(path, "kept")
    (tmp_path / f".settings.json.{os.getpid()}.tmp").mkdir()  # in the way of the temporary file
    with pytest.raises(IsADirectoryError):
        write_private(path, "lost")
    assert path.read_text() == "kept"


def test_tightening_takes_others_off_the_directory_and_its_files_only(tmp_path: Path) -> None:
    data = tmp_path / "agent-choices"
    chat = data / "chat"
    chat.mkdir(parents=True)
    data.chmod(0o755)
    chat.chmod(0o751)
    conversation = chat / "storage-user-1.json"
    conversation.write_text("{}")
    conversation.chmod(0o644)
    readonly = chat / "cookie-secret"
    readonly.write_text("s")
    readonly.chmod(0o444)
    theirs = chat / "notes.txt"  # the person's own file, beside ours: not ours to change
    theirs.write_text("")
    theirs.chmod(0o644)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    elsewhere.chmod(0o644)
    (chat / "storage-user-2.json").symlink_to(elsewhere)  # links are not followed

    places = [(data, []), (chat, ["storage-*.json", *written_as("cookie-secret")])]
    changed = tighten(places)
    assert changed == [data, chat, readonly, conversation]
    assert [mode(path) for path in changed] == [0o700, 0o700, 0o400, 0o600]
    assert (mode(theirs), mode(elsewhere)) == (0o644, 0o644)
    assert describe_tightened(changed, ENGLISH) == (
        f"made {data}, {chat} and 2 files in {chat} private (mode 700, files 600): other users "
        "could read the conversations, questions, answers, tokens or settings they hold"
    )
    assert tighten(places) == [], "said once: the next start finds nothing to change"


def test_what_was_made_private_is_said_whole_in_each_language(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    one = [folder / "history.sqlite3"]
    one[0].write_text("")
    assert describe_tightened(one, ENGLISH).startswith(f"made 1 file in {folder} private ")
    assert describe_tightened([folder], ENGLISH).startswith(f"made {folder} private ")
    assert describe_tightened([folder, *one], translation("zh_Hans")) == (
        f"已将 {folder} 以及 {folder} 中的 1 个文件设为私有（目录权限 700，文件 600）："
        "其他用户原本可以读取其中的对话、问题、回答、令牌或设置"
    )


def test_what_is_missing_is_not_tightened(tmp_path: Path) -> None:
    assert tighten([(tmp_path / "not-there", ["*"])]) == []
