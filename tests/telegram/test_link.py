"""`provide-choice telegram link`: waits (up to 5 minutes, saying so) for /start sent to the bot,
saves that chat in the settings file's `telegram` section and says so in the chat; without a
token, or without a /start in time, it says why; Telegram away is said once; the token is never
printed."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from telegram_api import CHAT_ID, OTHER_CHAT_ID, StandInBotApi

from provide_choice.__main__ import main


@pytest.fixture
def unlinked(api: StandInBotApi, monkeypatch: pytest.MonkeyPatch) -> StandInBotApi:
    monkeypatch.delenv("PROVIDE_CHOICE_TELEGRAM_CHAT")
    return api


def test_link_saves_the_chat_that_sent_start_and_says_so_there(
    unlinked: StandInBotApi, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = unlinked
    api.person(OTHER_CHAT_ID).says("hello?")  # not a /start: read past
    api.person().says("/start")
    assert main(["telegram", "link"]) == 0
    settings = home / "settings.json"
    assert json.loads(settings.read_text()) == {"telegram": {"chat_id": CHAT_ID}}
    (linked,) = api.bot_messages()
    assert linked.plain == (
        "Linked: questions from provide-choice will come here. Answer with their buttons, or "
        "by replying to them."
    )
    assert api.pending_updates() == [], "the /start is confirmed: the server does not read it"
    err = capsys.readouterr().err
    assert err == (
        "provide-choice telegram link: send /start to your bot in Telegram now; waiting up to "
        "5 minutes (Ctrl-C stops)\n"
        f"provide-choice telegram link: linked to chat {CHAT_ID} (private), saved in {settings}\n"
    )


def test_link_waits_for_a_start_sent_while_it_waits(unlinked: StandInBotApi, home: Path) -> None:
    api = unlinked
    later = threading.Timer(0.3, lambda: api.person().says("/start@choices_bot"))
    later.start()
    assert main(["telegram", "link", "--wait", "10"]) == 0
    later.join()
    assert json.loads((home / "settings.json").read_text())["telegram"]["chat_id"] == CHAT_ID


def test_the_token_may_be_in_the_settings_file_and_the_chat_is_saved_beside_it(
    api: StandInBotApi, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("TOKEN", "CHAT", "API"):
        monkeypatch.delenv(f"PROVIDE_CHOICE_TELEGRAM_{name}")
    section = {"token": api.token, "api_url": api.url}
    (home / "settings.json").write_text(json.dumps({"language": "en", "telegram": section}))
    api.person().says("/start")
    assert main(["telegram", "link"]) == 0
    saved = json.loads((home / "settings.json").read_text())
    assert saved == {"language": "en", "telegram": section | {"chat_id": CHAT_ID}}


def test_no_start_in_time_exits_1_saying_so(
    unlinked: StandInBotApi, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["telegram", "link", "--wait", "1"]) == 1
    assert capsys.readouterr().err.endswith(
        "provide-choice telegram link: no /start reached the bot within 1 second; run it again "
        "to link a chat\n"
    )


def test_without_a_token_it_exits_2_saying_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PROVIDE_CHOICE_TELEGRAM_TOKEN", raising=False)
    assert main(["telegram", "link"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("provide-choice telegram link: cannot link: Telegram has no bot token")
    assert "BotFather" in err
    assert "PROVIDE_CHOICE_TELEGRAM_TOKEN" in err


def test_telegram_away_is_said_once_and_the_token_never(
    unlinked: StandInBotApi, capsys: pytest.CaptureFixture[str]
) -> None:
    unlinked.stop()
    assert main(["telegram", "link", "--wait", "2"]) == 1
    err = capsys.readouterr().err
    assert err.count("Telegram cannot be reached") == 1, err
    assert unlinked.token not in err


def test_a_token_telegram_does_not_know_exits_1_saying_so(
    unlinked: StandInBotApi, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PROVIDE_CHOICE_TELEGRAM_TOKEN", "42:not-the-bots-token")
    assert main(["telegram", "link", "--wait", "5"]) == 1
    err = capsys.readouterr().err
    assert "Telegram refused the bot (401: Unauthorized); check its token" in err
    assert "not-the-bots-token" not in err


def test_link_has_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["telegram", "link", "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "Wait (up to 5 minutes) for /start sent to the bot in Telegram" in out
    assert "--wait SECONDS" in out
