"""Approvals in a real Chromium: `choices-chat --agent ag-ui` in front of pydantic-ai's own AG-UI
adapter, whose agent has a tool declared `requires_approval=True` (issue 32).

The model is scripted (`AGUIServer`): it calls `delete_branch`, the adapter ends the run with an
interrupt per call, and the chat draws each as a group; the run the chat posts to resume them runs or
denies the calls, and the model then says what the tool returned (`tool_returns`), so the reply shows
whether the tool ran. One agent and one chat for the module; every test gets a fresh browser context,
so a fresh conversation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

from agui_server import AGUIServer, branch_deleter, deleting, refused_run, tool_returns
from chat_harness import (
    accessible,
    chat_screenshot,
    log,
    option,
    send,
    send_when_ready,
)
from playwright.async_api import Locator, Page, expect

pytestmark = pytest.mark.asyncio(loop_scope="session")

DELETED: list[str] = []
OLD = 'Approve delete_branch({"name":"old"})?'  # pydantic-ai's adapter words it so
OLDER = 'Approve delete_branch({"name":"older"})?'


@pytest.fixture(scope="module")
def agent() -> Iterator[AGUIServer]:
    with AGUIServer(tools=[branch_deleter(DELETED)]) as server:
        yield server


@pytest.fixture(autouse=True)
def fresh(agent: AGUIServer) -> None:
    agent.clear()
    DELETED.clear()


def group(page: Page, message: str) -> Locator:
    return page.get_by_role("group", name=message)


def resumed(posted: dict[str, Any]) -> list[dict[str, Any]]:
    return list(posted.get("resume") or [])


async def test_approve_runs_the_tool_and_the_reply_says_so(page: Page, agent: AGUIServer) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    approve = option(page, OLD, "Approve")
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
    await expect(option(page, OLD, "Deny")).to_have_attribute("aria-pressed", "false")
    assert await accessible(page)

    await page.reload()
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-disabled", "true")
    assert len(agent.posted) == 2, "a reload sends nothing again"


async def test_deny_with_a_reason_does_not_run_the_tool_and_the_reason_reaches_it(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    reason = group(page, OLD).get_by_role("textbox", name="Reason")
    await reason.fill("It holds the audit fixes")
    await option(page, OLD, "Deny").click()
    await expect(log(page)).to_contain_text("delete_branch: It holds the audit fixes")
    assert DELETED == []
    assert resumed(agent.posted[-1]) == [
        {
            "interruptId": "int-call_old",
            "status": "resolved",
            "payload": {"approved": False, "reason": "It holds the audit fixes"},
        }
    ]
    await expect(option(page, OLD, "Deny")).to_have_attribute("aria-pressed", "true")
    await expect(reason).to_be_disabled()
    await expect(reason).to_have_value("It holds the audit fixes")


async def test_two_interrupts_are_resumed_together_a_reload_keeps_the_first_and_readme_screenshot(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old", "older"), [tool_returns]]
    await send(page, "Delete both old branches")
    await option(page, OLD, "Approve").click()
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(option(page, OLDER, "Deny")).to_have_attribute("aria-disabled", "false")
    assert len(agent.posted) == 1, "nothing goes back before the last is answered"
    await chat_screenshot(page, "chat-approval.png")

    await page.reload()
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-disabled", "true")
    await expect(option(page, OLDER, "Approve")).to_have_attribute("aria-pressed", "false")
    await option(page, OLDER, "Deny").click()
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
    await expect(option(page, OLD, "Approve")).to_be_visible()
    await send_when_ready(page, "Rename it instead")
    await expect(log(page)).to_contain_text("What else?")
    assert resumed(agent.posted[-1]) == [{"interruptId": "int-call_old", "status": "cancelled"}]
    typed = agent.posted[-1]["messages"][-1]
    assert (typed["role"], typed["content"]) == ("user", "Rename it instead")
    assert DELETED == []
    for label in ("Approve", "Deny"):
        await expect(option(page, OLD, label)).to_have_attribute("aria-pressed", "false")
        await expect(option(page, OLD, label)).to_have_attribute("aria-disabled", "true")


async def test_a_refused_resume_is_an_alert_and_the_group_can_be_answered_again(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [deleting("old"), [tool_returns]]
    await send(page, "Delete the old branch")
    await expect(option(page, OLD, "Approve")).to_be_visible()
    agent.raw_answers.append(refused_run("This approval is no longer valid"))  # the first resume
    await option(page, OLD, "Approve").click()
    alert = page.get_by_role("alert").filter(has_text="This approval is no longer valid")
    await expect(alert).to_be_visible()
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "false")
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-disabled", "false")
    assert await accessible(page)

    await option(page, OLD, "Approve").focus()  # the keyboard answers as well as the mouse
    await page.keyboard.press("Enter")
    await expect(log(page)).to_contain_text("delete_branch: deleted branch old")
    assert DELETED == ["old"]
    await expect(option(page, OLD, "Approve")).to_have_attribute("aria-pressed", "true")
