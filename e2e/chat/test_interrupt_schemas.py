"""Interrupts whose answers are not approvals, in a real Chromium: a stand-in AG-UI agent (raw event
streams from `AGUIServer`, as an agent other than pydantic-ai's may send them) asks for one of a
few values, for a small form, for an answer the chat cannot draw, and for one that expires; the test
checks what the person sees and the `resume` the chat posts (issue 32).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

from agui_server import AGUIServer, finished_run, interrupted_run
from chat_harness import accessible, log, option, send, send_when_ready
from playwright.async_api import Locator, Page, expect

pytestmark = pytest.mark.asyncio(loop_scope="session")

ENVIRONMENT = "Where should v1.4 go first?"
SIZE = "How many pods?"
TICKET = "File the incident ticket"
UPLOAD = "Upload the build artefacts"


@pytest.fixture(scope="module")
def agent() -> Iterator[AGUIServer]:
    with AGUIServer() as server:
        yield server


@pytest.fixture(autouse=True)
def fresh(agent: AGUIServer) -> None:
    agent.clear()


def group(page: Page, message: str) -> Locator:
    return page.get_by_role("group", name=message)


def interrupt(interrupt_id: str, message: str, schema: dict[str, Any] | None) -> dict[str, Any]:
    asked: dict[str, Any] = {"id": interrupt_id, "reason": "input_required", "message": message}
    return asked | ({"responseSchema": schema} if schema is not None else {})


def two_runs(agent: AGUIServer, said: str, interrupts: list[dict[str, Any]], then: str) -> None:
    """The agent's next runs: one that says `said` and ends waiting for `interrupts`, and the one
    that goes on from them, saying `then`."""
    agent.raw_answers += [interrupted_run(said, interrupts), finished_run(then)]


async def test_one_value_is_a_button_per_value_labelled_by_its_title(
    page: Page, agent: AGUIServer
) -> None:
    environment = {
        "type": "string",
        "oneOf": [
            {"const": "staging", "title": "Staging"},
            {"const": "canary", "title": "10% canary"},
        ],
    }
    size = {"type": "object", "properties": {"pods": {"type": "string", "enum": ["2", "4"]}}}
    asked = [interrupt("where", ENVIRONMENT, environment), interrupt("size", SIZE, size)]
    two_runs(agent, "Two questions first.", asked, "Rolling out.")
    await send(page, "Roll out v1.4")
    await expect(option(page, ENVIRONMENT, "10% canary")).to_be_visible()
    assert await accessible(page)
    await option(page, ENVIRONMENT, "10% canary").click()
    await expect(option(page, ENVIRONMENT, "10% canary")).to_have_attribute("aria-pressed", "true")
    await option(page, SIZE, "4").click()
    await expect(log(page)).to_contain_text("Rolling out.")
    assert agent.posted[-1]["resume"] == [
        {"interruptId": "where", "status": "resolved", "payload": "canary"},
        {"interruptId": "size", "status": "resolved", "payload": {"pods": "4"}},
    ]
    await expect(option(page, SIZE, "4")).to_have_attribute("aria-pressed", "true")
    await expect(option(page, SIZE, "2")).to_have_attribute("aria-disabled", "true")


async def test_a_flat_schema_is_a_form_checked_before_it_is_sent_and_the_rest_can_be_cancelled(
    page: Page, agent: AGUIServer
) -> None:
    ticket = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "title": "Title"},
            "severity": {"type": "integer", "title": "Severity"},
            "page": {"type": "boolean", "title": "Page the on-call engineer"},
        },
        "required": ["title", "severity"],
    }
    upload = {"type": "object", "properties": {"files": {"type": "array", "items": {}}}}
    asked = [interrupt("ticket", TICKET, ticket), interrupt("upload", UPLOAD, upload)]
    two_runs(agent, "I need two things.", asked, "Ticket filed.")
    await send(page, "Something broke")
    form = group(page, TICKET)
    await expect(form.get_by_role("textbox", name="Title (required)")).to_be_visible()
    await expect(group(page, UPLOAD)).to_contain_text(
        "This agent needs an answer the chat cannot draw"
    )
    assert await accessible(page)

    await form.get_by_role("textbox", name="Title (required)").fill("Checkout <b>down</b>")
    await option(page, TICKET, "Submit").click()
    await expect(form.get_by_role("alert")).to_have_text("Not sent: Severity is required.")
    await form.get_by_role("spinbutton", name="Severity (required)").fill("2")
    await form.get_by_role("checkbox", name="Page the on-call engineer").click()
    await option(page, TICKET, "Submit").click()
    await expect(form.get_by_role("alert")).to_be_hidden()
    assert len(agent.posted) == 1, "the form alone does not end the wait"
    await option(page, UPLOAD, "Cancel").click()
    await expect(log(page)).to_contain_text("Ticket filed.")
    assert agent.posted[-1]["resume"] == [
        {
            "interruptId": "ticket",
            "status": "resolved",
            "payload": {"title": "Checkout <b>down</b>", "severity": 2, "page": True},
        },
        {"interruptId": "upload", "status": "cancelled"},
    ]
    await expect(form.get_by_role("textbox", name="Title (required)")).to_be_disabled()
    await expect(option(page, UPLOAD, "Cancel")).to_have_attribute("aria-pressed", "true")
    assert await accessible(page)


async def test_an_interrupt_that_expires_counts_down_then_says_expired_and_is_left_out(
    page: Page, agent: AGUIServer
) -> None:
    soon = (datetime.now(UTC) + timedelta(seconds=3)).isoformat()
    environment = {"type": "string", "enum": ["staging", "production"]}
    asked = interrupt("where", ENVIRONMENT, environment) | {"expiresAt": soon}
    two_runs(agent, "Quick question.", [asked], "Noted.")
    await send(page, "Roll out v1.4")
    await expect(group(page, ENVIRONMENT)).to_contain_text("Answer within 0:0")
    await expect(group(page, ENVIRONMENT)).to_contain_text("Expired", timeout=10_000)
    for label in ("staging", "production"):
        await expect(option(page, ENVIRONMENT, label)).to_have_attribute("aria-disabled", "true")
        await expect(option(page, ENVIRONMENT, label)).to_have_attribute("aria-pressed", "false")
    assert await accessible(page)
    await option(page, ENVIRONMENT, "staging").click(force=True)  # taken for nothing
    await send_when_ready(page, "Staging, please")
    await expect(log(page)).to_contain_text("Noted.")
    assert not agent.posted[-1]["resume"], "an expired interrupt is no longer answered"
    assert agent.posted[-1]["messages"][-1]["content"] == "Staging, please"
