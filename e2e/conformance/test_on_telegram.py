"""The conformance table in Telegram: `provide-choice serve` over stdio, spawned by the SDK's
client, its Telegram plug-in pointed at a stand-in Bot API on 127.0.0.1 and linked to the
person's chat; each case is asked with `transport: "telegram"` and played by a simulated person
pressing the message's buttons and replying to it. One server and one stand-in for the module."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from attended import attended_environment
from cases import CASES
from conformance import Case, asked_on, assert_conforms, params, write_settings
from mcp import Client, StdioServerParameters
from mcp_servers import call, held
from provide_choice_harness import COMMAND
from telegram_api import StandInBotApi, stand_in_bot_api, telegram_environment
from telegram_person import TelegramPerson

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def api() -> Iterator[StandInBotApi]:
    with stand_in_bot_api() as running:
        yield running


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def telegram_server(
    api: StandInBotApi, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Path, Client]]:
    home = tmp_path_factory.mktemp("conformance-telegram")
    environment = attended_environment(home, **telegram_environment(api))
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve", "--no-browser"], env=environment
    )
    async with held(Client(parameters)) as client:
        yield home, client


@pytest.mark.parametrize("case", params(CASES, "telegram"))
async def test_telegram_gives_the_expected_response(
    case: Case, telegram_server: tuple[Path, Client], api: StandInBotApi
) -> None:
    home, client = telegram_server
    write_settings(home, case)
    person = TelegramPerson(api, case, seen=len(api.bot_messages()))
    asking = asyncio.create_task(call(client, asked_on(case, "telegram")))
    try:
        await person.play()
        response = await asyncio.wait_for(asking, 15)
    finally:
        asking.cancel()
    assert_conforms(case, "telegram", response)
