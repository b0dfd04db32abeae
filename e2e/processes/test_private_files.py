"""Private files are private: whichever command makes the data directory first makes it 700, and
every file holding a conversation, a question, an answer, a token or a setting is 600. Each command
runs as a person runs it, under the usual umask (022), with a data directory it has to create."""

from __future__ import annotations

import os
import re
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_harness import VIEWPORT
from long_running import CHAT, INBOX, wait_for
from playwright.async_api import Browser, expect
from provide_choice_harness import (
    DOWN,
    ENTER,
    answer_of,
    continue_with_settings,
    expect_plain,
    spawn_ask,
)

PRIVATE_DIRECTORY, PRIVATE_FILE = 0o700, 0o600


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most systems give: what is created is readable by all unless made otherwise."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def modes(directory: Path) -> dict[str, int]:
    """The mode of `directory` ("."), and of each path below it, by its path relative to it."""
    paths = [directory, *directory.rglob("*")]
    return {str(path.relative_to(directory)): stat.S_IMODE(path.stat().st_mode) for path in paths}


@pytest.mark.asyncio(loop_scope="session")  # the browser's loop
async def test_regression_a_chat_message_is_kept_private(browser: Browser, tmp_path: Path) -> None:
    # The chat made the data directory 755 and kept whole conversations in files of mode 644.
    home = tmp_path / "share" / "agent-choices"
    process, printed = CHAT.start(home)
    page = await browser.new_page(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        url = re.search(r"the chat is at (\S+) ", printed)
        assert url is not None, printed
        await page.goto(url.group(1))
        await page.get_by_role("button", name="A side project").click()
        await expect(page.get_by_role("group", name="What kind of project?")).to_be_visible()
        conversation = "chat/storage-user-*.json"
        wait_for(lambda: any(home.glob(conversation)), "the conversation is saved")
    finally:
        process.send_signal(signal.SIGTERM)  # the page still open: its connection does not hold it
        _output, errors = process.communicate(timeout=30)
        await page.close()
    assert (process.returncode, errors) == (0, "choices-chat: stopped (SIGTERM)\n")
    found = modes(tmp_path / "share")
    assert set(found.values()) <= {PRIVATE_DIRECTORY, PRIVATE_FILE}, found
    assert found["."] == found["agent-choices"] == found["agent-choices/chat"] == PRIVATE_DIRECTORY
    assert found["agent-choices/chat/cookie-secret"] == PRIVATE_FILE
    assert [mode for name, mode in found.items() if "storage-user-" in name] == [PRIVATE_FILE]


def test_a_question_and_its_answer_are_kept_private(tmp_path: Path) -> None:
    child, answer_file = spawn_ask(
        {
            "title": "Database",
            "prompt": "The app needs storage and none is configured.",
            "selection_mode": "single",
            "options": [
                {"id": "pg", "label": "PostgreSQL", "recommended": True},
                {"id": "lite", "label": "SQLite"},
            ],
        },
        tmp_path,
    )
    continue_with_settings(child)
    expect_plain(child, "Choose one")
    child.send(DOWN + ENTER)
    assert answer_of(child, answer_file)["action_status"] == "selected"
    found = modes(tmp_path / "home")
    assert found["."] == PRIVATE_DIRECTORY
    assert "history.sqlite3" in found
    assert set(found.values()) == {PRIVATE_DIRECTORY, PRIVATE_FILE}, found


def test_the_inbox_s_token_is_kept_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    process, _printed = INBOX.start(home)
    try:
        wait_for((home / "inbox-open.html").exists, "the inbox opens its page through a file")
        found = modes(home)
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
    assert found == {
        ".": PRIVATE_DIRECTORY,
        "inbox.json": PRIVATE_FILE,
        "inbox-open.html": PRIVATE_FILE,
    }
