"""Approvals on two `choices-chat --agent ag-ui --redis` instances, in a real Chromium (issue 32): an
answer given on one instance shows on the other, which goes on from there, because what a group
shows is derived from the conversation kept in Redis. The agent is pydantic-ai's own AG-UI adapter
with a tool that needs approval (`AGUIServer`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

from agui_server import AGUIServer, branch_deleter, deleting, tool_returns
from chat_harness import ChatProcess, log, option, send
from playwright.async_api import Page, expect
from redis_chat import shared_instance
from redis_server import RedisServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

OLD = 'Approve delete_branch({"name":"old"})?'
OLDER = 'Approve delete_branch({"name":"older"})?'


@pytest.fixture(scope="module")
def agent() -> Iterator[AGUIServer]:
    with AGUIServer(tools=[branch_deleter([])]) as server:
        yield server


@pytest.fixture(autouse=True)
def fresh(agent: AGUIServer) -> None:
    """The agent's turns and requests are the test's own (none a failed try left)."""
    agent.clear()


@pytest.fixture(scope="module")
def instances(
    redis_server: RedisServer, agent: AGUIServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ChatProcess, ChatProcess]]:
    arguments = ["--agent", "ag-ui", "--url", agent.url]
    with (
        shared_instance(redis_server, tmp_path_factory.mktemp("first"), arguments) as first,
        shared_instance(redis_server, tmp_path_factory.mktemp("second"), arguments) as second,
    ):
        yield first, second


async def test_an_answer_given_on_one_instance_shows_on_the_other_which_goes_on(
    page: Page, agent: AGUIServer, instances: tuple[ChatProcess, ChatProcess]
) -> None:
    first, second = instances
    agent.turns += [deleting("old", "older"), [tool_returns]]
    await page.goto(first.url)
    await send(page, "Delete both old branches")
    await option(page, OLD, "Approve").click()
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")

    await page.goto(second.url)  # the same browser: the same conversation, on the other instance
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-disabled", "true")
    await expect(option(page, OLDER, "Deny")).to_have_attribute("aria-disabled", "false")
    await option(page, OLDER, "Deny").click()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    assert [entry["interruptId"] for entry in agent.posted[-1]["resume"]] == [
        "int-call_old",
        "int-call_older",
    ]

    await page.goto(first.url)
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    await expect(option(page, OLDER, "Deny")).to_have_attribute("aria-pressed", "true")
