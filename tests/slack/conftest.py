"""The Slack plug-in's tests: a stand-in Slack on 127.0.0.1 for each test (its Web API and its
Socket Mode WebSocket), the plug-in pointed at it through its environment variables, and a
server's questions, alerts and transports as `provide-choice serve` sets them up. Every envelope
the stand-in sent must have been acked by the end of the test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from slack_api import StandInSlack, slack_environment, stand_in_slack
from telegram_server import Server, start_server

from provide_choice._transports._base import close_transports


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> Iterator[StandInSlack]:
    with stand_in_slack() as running:
        for name, value in slack_environment(running).items():
            monkeypatch.setenv(name, value)
        yield running
        assert running.unacked() == [], "every envelope is acked"


@pytest_asyncio.fixture
async def server(api: StandInSlack) -> AsyncIterator[Server]:
    running = start_server("slack")
    yield running
    await close_transports(running.transports)
