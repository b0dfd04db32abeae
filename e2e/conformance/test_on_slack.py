"""The conformance table in Slack: `provide-choice serve` over stdio, spawned by the SDK's
client, its Slack plug-in pointed at a stand-in Slack on 127.0.0.1 (its Web API and Socket
Mode); each case is asked with `transport: "slack"` and played by a simulated person pressing,
ticking, picking and typing in the message. One server and one stand-in for the module; every
envelope the stand-in sent must have been acked."""

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
from slack_api import StandInSlack, slack_environment, stand_in_slack
from slack_person import SlackPerson

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def api() -> Iterator[StandInSlack]:
    with stand_in_slack() as running:
        yield running
        assert running.unacked() == [], "every envelope is acked"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def slack_server(
    api: StandInSlack, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Path, Client]]:
    home = tmp_path_factory.mktemp("conformance-slack")
    environment = attended_environment(home, **slack_environment(api))
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve", "--no-browser"], env=environment
    )
    async with held(Client(parameters)) as client:
        yield home, client


@pytest.mark.parametrize("case", params(CASES, "slack"))
async def test_slack_gives_the_expected_response(
    case: Case, slack_server: tuple[Path, Client], api: StandInSlack
) -> None:
    home, client = slack_server
    write_settings(home, case)
    person = SlackPerson(api, case, seen=len(api.channel_messages()))
    asking = asyncio.create_task(call(client, asked_on(case, "slack")))
    try:
        await person.play()
        response = await asyncio.wait_for(asking, 15)
    finally:
        asking.cancel()
    assert_conforms(case, "slack", response)
