"""The Telegram plug-in's tests: a stand-in Bot API on 127.0.0.1 for each test, the plug-in
pointed at it (and linked to the person's chat) through its environment variables, and a server's
questions, alerts and transports as `provide-choice serve` sets them up (`telegram_server`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from telegram_api import StandInBotApi, stand_in_bot_api, telegram_environment
from telegram_server import Server, start_server

from provide_choice._transports._base import close_transports


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInBotApi]:
    with stand_in_bot_api() as running:
        for name, value in telegram_environment(running).items():
            monkeypatch.setenv(name, value)
        yield running


@pytest_asyncio.fixture
async def server(api: StandInBotApi) -> AsyncIterator[Server]:
    running = start_server()
    yield running
    await close_transports(running.transports)
