"""`choices-chat --agent ag-ui` in a real Chromium, in front of a real AG-UI agent nobody here wrote.

The chat runs as a user would run it, `choices-chat --agent ag-ui --url URL --header ...`, and the agent
is pydantic-ai's own AG-UI adapter over a scripted model (`AGUIServer`: no real model, no key), which
keeps what each run posted and what its model was given. One of each for the module; every test gets
a fresh browser context, so a fresh conversation (and a fresh thread).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from extras import NEEDS_AG_UI_SERVER

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

import prompts
from accessibility import serious_violations
from agui_server import AGUIServer, choices_call, event_stream, html_page, started_then_text
from chat_harness import chat_screenshot, chat_server, log, option, send
from playwright.async_api import Locator, Page, expect
from pydantic_ai.messages import ModelRequest, ToolReturnPart, UserPromptPart

from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.asyncio(loop_scope="session")

TOKEN = "Bearer e2e-token"
DATABASE = {**prompts.DATABASE, "context": "Both work with the ORM; PostgreSQL scales further."}


@pytest.fixture(scope="module")
def agent() -> Iterator[AGUIServer]:
    with AGUIServer() as server:
        yield server


@pytest.fixture(scope="module")
def chat_url(agent: AGUIServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    arguments = ["--agent", "ag-ui", "--url", agent.url, "--header", f"Authorization: {TOKEN}"]
    with chat_server(arguments, tmp_path_factory.mktemp("chat-ag-ui")) as url:
        yield url


@pytest.fixture(autouse=True)
def fresh(agent: AGUIServer) -> None:
    agent.clear()


def alert(page: Page, text: str) -> Locator:
    return page.get_by_role("alert").filter(has_text=text)


def roles(posted: dict[str, Any]) -> list[str]:
    return [message["role"] for message in posted["messages"]]


async def test_a_frontend_call_streams_in_becomes_buttons_and_comes_back_answered(
    page: Page, agent: AGUIServer
) -> None:
    gate = threading.Event()
    first, second = choices_call(DATABASE)
    agent.turns += [
        ["Two databases ", "fit this service.", first, gate, second],
        ["PostgreSQL ", "it is."],
        ["Noted."],
    ]
    await send(page, "Set up a service")
    try:  # the run is held open: whatever shows now was streamed before it ended
        reply = log(page).locator(".chat-message--assistant").last
        await expect(reply).to_contain_text("Two databases fit this service.")
        await expect(page.get_by_text("preparing choices...")).to_be_visible()
    finally:
        gate.set()
    await expect(option(page, DATABASE["question"], "PostgreSQL")).to_be_visible()
    await expect(page.get_by_text("preparing choices...")).to_have_count(0)
    assert agent.offered_tools == [["present_choices"]]
    assert len(agent.model_messages) == 1, "the frontend call ended the run"

    await option(page, DATABASE["question"], "PostgreSQL").click()
    await expect(log(page)).to_contain_text("PostgreSQL it is.")
    *_, answered = agent.model_messages[-1]  # what the model was given on the next run
    assert isinstance(answered, ModelRequest)
    result, pick = answered.parts
    assert isinstance(result, ToolReturnPart)
    assert (result.tool_name, result.tool_call_id, result.content) == (
        "present_choices",
        "call_choices_1",
        "postgres",
    )
    assert isinstance(pick, UserPromptPart)
    assert pick.content == "postgres"
    assert roles(agent.posted[-1]) == ["user", "assistant", "tool", "user"]
    thread = agent.posted[0]["threadId"]
    assert agent.posted[1]["threadId"] == thread
    assert all(headers["authorization"] == TOKEN for headers in agent.headers)

    await page.reload()
    await expect(log(page)).to_contain_text("PostgreSQL it is.")
    await expect(log(page)).to_contain_text("Two databases fit this service.")
    chosen = option(page, DATABASE["question"], "PostgreSQL")
    await expect(chosen).to_have_attribute("aria-pressed", "true")
    await expect(chosen).to_have_attribute("aria-disabled", "true")
    await send(page, "Thanks")
    await expect(log(page)).to_contain_text("Noted.")
    assert agent.posted[-1]["threadId"] == thread, "the reload kept the thread"


async def test_a_fenced_block_in_the_text_renders_and_the_pick_goes_back_as_a_message(
    page: Page, agent: AGUIServer
) -> None:
    fence = render_fence(ChoicePrompt.model_validate(DATABASE))
    agent.turns += [["No tools here.\n\n", fence[:40], fence[40:]], ["SQLite, then."]]
    await send(page, "Which database?")
    await option(page, DATABASE["question"], "SQLite").click()
    await expect(log(page)).to_contain_text("SQLite, then.")
    posted = agent.posted[-1]["messages"]
    assert roles(agent.posted[-1]) == ["user", "assistant", "user"]
    assert posted[1]["content"] == f"No tools here.\n\n{fence}"
    assert posted[2]["content"] == "sqlite"


async def test_a_run_error_is_an_alert_after_what_was_said_and_the_chat_goes_on(
    page: Page, agent: AGUIServer
) -> None:
    agent.turns += [["Let me check. ", RuntimeError("the model is overloaded")], ["Back again."]]
    await send(page, "Deploy it")
    await expect(alert(page, "The agent could not reply: the model is overloaded")).to_be_visible()
    kept = log(page).locator(".chat-message--assistant").last  # the streamed text stays
    await expect(kept).to_contain_text("Let me check.")
    await send(page, "Try again")
    await expect(log(page)).to_contain_text("Back again.")
    assert roles(agent.posted[-1]) == ["user", "assistant", "user"]


async def test_an_agent_that_is_down_is_an_alert_and_the_chat_goes_on_when_it_is_back(
    page: Page, agent: AGUIServer
) -> None:
    agent.stop()
    try:
        await send(page, "Are you there?")
        refused = alert(page, f"cannot connect to the AG-UI agent at {agent.url}")
        await expect(refused).to_contain_text("(connection refused). Is it running?")
    finally:
        agent.start()
    agent.turns.append(["I'm back."])
    await send(page, "And now?")
    await expect(log(page)).to_contain_text("I'm back.")


async def test_a_malformed_stream_and_an_html_page_are_alerts_and_the_chat_goes_on(
    page: Page, agent: AGUIServer
) -> None:
    agent.raw_answers += [
        event_stream([*started_then_text("Half an answer"), "{not json"]),
        html_page(),
    ]
    await send(page, "One")
    await expect(alert(page, "it sent data that is not JSON")).to_be_visible()
    await expect(log(page)).to_contain_text("Half an answer")
    await send(page, "Two")
    await expect(alert(page, "answered with text/html (HTTP 200)")).to_contain_text(
        "Is it the address of an AG-UI agent?"
    )
    await expect(log(page)).not_to_contain_text("Welcome!")
    agent.turns.append(["All good."])
    await send(page, "Three")
    await expect(log(page)).to_contain_text("All good.")


async def test_no_serious_accessibility_violations_and_the_readme_screenshot(
    page: Page, agent: AGUIServer
) -> None:
    rollout = {
        "question": "How should I roll out v1.4?",
        "context": "42 commits since v1.3, all checks green. A canary catches what the tests miss.",
        "options": [
            {"label": "All at once", "value": "Roll out to every pod at once"},
            {"label": "Canary first", "value": "Canary on 10% of the pods first"},
            {"label": "Staging only", "value": "Staging only for now"},
        ],
    }
    start = {
        "question": "When should the canary start?",
        "options": [
            {"label": "Now", "value": "Start now"},
            {"label": "Tonight at 22:00", "value": "Start tonight at 22:00"},
        ],
    }
    agent.turns += [
        ["I checked the release branch: ", "`v1.4` is ready.", *choices_call(rollout)],
        [
            "**Canary** it is. The plan:\n\n",
            "1. Deploy v1.4 to 10% of the pods\n2. Watch the error rate for 30 minutes\n",
            "3. Roll out to the rest, or roll back\n\n",
            render_fence(ChoicePrompt.model_validate(start)),
        ],
    ]
    await send(page, "Ship the release, please.")
    await option(page, rollout["question"], "Canary first").click()
    await expect(option(page, start["question"], "Now")).to_be_visible()
    await expect(option(page, rollout["question"], "Canary first")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert await serious_violations(page) == []

    await chat_screenshot(page, "chat-ag-ui.png")
