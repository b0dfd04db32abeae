"""Approvals in a real Chromium: `choices-chat --agent ag-ui` in front of pydantic-ai's own AG-UI
adapter, whose agent has a tool declared `requires_approval=True` (issue 32).

The model is scripted (`AGUIServer`): it calls `delete_branch`, the adapter ends the run with an
interrupt per call, and the chat draws each as a group; the run the chat posts to resume them runs or
denies the calls, and the model then says what the tool returned (`tool_returns`), so the reply shows
whether the tool ran. One agent and one chat for the module; every test gets a fresh browser context,
so a fresh conversation.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

import pytest_asyncio
from agui_server import AGUIServer, refused_run, tool_call, tool_returns
from chat_harness import (
    VIEWPORT,
    accessible,
    chat_screenshot,
    chat_server,
    log,
    send,
    send_when_ready,
)
from playwright.async_api import Browser, Locator, Page, expect
from pydantic_ai import Tool

pytestmark = pytest.mark.asyncio(loop_scope="module")

DELETED: list[str] = []
OLD = 'Approve delete_branch({"name":"old"})?'  # pydantic-ai's adapter words it so
OLDER = 'Approve delete_branch({"name":"older"})?'


def delete_branch(name: str) -> str:
    """Delete the git branch `name`."""
    DELETED.append(name)
    return f"deleted branch {name}"


@pytest.fixture(scope="module")
def agent() -> Iterator[AGUIServer]:
    with AGUIServer(tools=[Tool(delete_branch, requires_approval=True)]) as server:
        yield server


@pytest.fixture(scope="module")
def chat_url(agent: AGUIServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chat_server(
        ["--agent", "ag-ui", "--url", agent.url], tmp_path_factory.mktemp("chat")
    ) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser, chat_url: str, agent: AGUIServer) -> AsyncIterator[Page]:
    agent.clear()
    DELETED.clear()
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(chat_url)
    await expect(log(page)).to_contain_text("You are chatting with the AG-UI agent at")
    yield page
    await context.close()


def group(page: Page, message: str) -> Locator:
    return page.get_by_role("group", name=message)


def button(page: Page, message: str, label: str) -> Locator:
    return group(page, message).get_by_role("button", name=label, exact=True)


def deleting(*names: str) -> list[Any]:
    """A turn: the model says so and calls `delete_branch` once per name, in one response."""
    calls = [
        tool_call("delete_branch", {"name": name}, f"call_{name}", i)
        for i, name in enumerate(names)
    ]
    return ["I'll clean up. ", *calls]


def resumed(posted: dict[str, Any]) -> list[dict[str, Any]]:
    return list(posted.get("resume") or [])


async def test_approve_runs_the_tool_and_the_reply_says_so(page: Page, agent: AGUIServer) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    approve = button(page, OLD, "Approve")
    await expect(approve).to_be_visible()
    await expect(group(page, OLD)).to_contain_text('"name": "old"')  # the call's arguments
    await expect(group(page, OLD).get_by_role("textbox", name="Reason")).to_be_editable()
    assert await accessible(page)
    assert DELETED == [], "nothing runs before the person approves"

    await approve.click()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    assert DELETED == ["old"]
    assert resumed(agent.posted[-1]) == [
        {"interruptId": "int-call_old", "status": "resolved", "payload": {"approved": True}}
    ]
    interrupted = agent.posted[-1]["messages"][-1]
    assert interrupted["role"] == "assistant"
    assert [call["id"] for call in interrupted["toolCalls"]] == ["call_old"]
    await expect(approve).to_have_attribute("aria-pressed", "true")
    await expect(approve).to_have_attribute("aria-disabled", "true")
    await expect(button(page, OLD, "Deny")).to_have_attribute("aria-pressed", "false")
    assert await accessible(page)

    await page.reload()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-disabled", "true")
    assert len(agent.posted) == 2, "a reload sends nothing again"


async def test_deny_with_a_reason_does_not_run_the_tool_and_the_reason_reaches_it(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    reason = group(page, OLD).get_by_role("textbox", name="Reason")
    await reason.fill("It holds the audit fixes")
    await button(page, OLD, "Deny").click()
    await expect(log(page)).to_contain_text("delete_branch: It holds the audit fixes")
    assert DELETED == []
    assert resumed(agent.posted[-1]) == [
        {
            "interruptId": "int-call_old",
            "status": "resolved",
            "payload": {"approved": False, "reason": "It holds the audit fixes"},
        }
    ]
    await expect(button(page, OLD, "Deny")).to_have_attribute("aria-pressed", "true")
    await expect(reason).to_be_disabled()
    await expect(reason).to_have_value("It holds the audit fixes")


async def test_two_interrupts_are_resumed_together_a_reload_keeps_the_first_and_readme_screenshot(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old", "older"), [tool_returns]]
    await send(page, "Delete both old branches")
    await button(page, OLD, "Approve").click()
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(button(page, OLDER, "Deny")).to_have_attribute("aria-disabled", "false")
    assert len(agent.posted) == 1, "nothing goes back before the last is answered"
    await chat_screenshot(page, "chat-approval.png")

    await page.reload()
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-disabled", "true")
    await expect(button(page, OLDER, "Approve")).to_have_attribute("aria-pressed", "false")
    await button(page, OLDER, "Deny").click()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    await expect(log(page)).to_contain_text("The tool call was denied.")
    assert len(agent.posted) == 2, "one run for both"
    assert [entry["interruptId"] for entry in resumed(agent.posted[-1])] == [
        "int-call_old",
        "int-call_older",
    ]
    assert DELETED == ["old"]
    assert await accessible(page)


async def test_a_message_typed_instead_cancels_the_open_interrupts(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old"), [tool_returns, "\n\nWhat else?"]]
    await send(page, "Delete the old branch")
    await expect(button(page, OLD, "Approve")).to_be_visible()
    await send_when_ready(page, "Rename it instead")
    await expect(log(page)).to_contain_text("What else?")
    assert resumed(agent.posted[-1]) == [{"interruptId": "int-call_old", "status": "cancelled"}]
    typed = agent.posted[-1]["messages"][-1]
    assert (typed["role"], typed["content"]) == ("user", "Rename it instead")
    assert DELETED == []
    for label in ("Approve", "Deny"):
        await expect(button(page, OLD, label)).to_have_attribute("aria-pressed", "false")
        await expect(button(page, OLD, label)).to_have_attribute("aria-disabled", "true")


async def test_a_refused_resume_is_an_alert_and_the_group_can_be_answered_again(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    await expect(button(page, OLD, "Approve")).to_be_visible()
    agent.raw_answers.append(refused_run("This approval is no longer valid"))  # the first resume
    await button(page, OLD, "Approve").click()
    alert = page.get_by_role("alert").filter(has_text="This approval is no longer valid")
    await expect(alert).to_be_visible()
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-pressed", "false")
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-disabled", "false")
    assert await accessible(page)

    await button(page, OLD, "Approve").click()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    assert DELETED == ["old"]
    await expect(button(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
