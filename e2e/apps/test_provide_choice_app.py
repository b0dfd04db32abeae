"""provide_choice in the conversation: the app drawn by the test host (the official host side of
MCP Apps) from the call's arguments, answered there, on both protocol revisions; the pending
result and a later poll, a cancelled call, a question that ends elsewhere, the summary in the
model's context, a host that names no call, a client that draws no apps (the dialog, then the
page), the keyboard alone, and axe in both themes. Every mode, and every answer a mode allows, is
the conformance table's (e2e/conformance/test_in_app.py)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from accessibility import serious_violations
from app_host import AppHost, apps_extension
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp_servers import connected, held, structured
from playwright.async_api import Browser, Frame, expect
from screenshots import keep_screenshot

from provide_choice import AnswerPolicy, create_server

pytestmark = pytest.mark.asyncio(loop_scope="session")

QUESTION: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage and **nothing** is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "description": "Scales further", "recommended": True},
        {"id": "lite", "label": "SQLite", "description": "One file, no server"},
        {"id": "<b>", "label": "<img src=x onerror=alert(1)>"},
    ],
}
MODES = ["legacy", "2026-07-28"]

Opened = Callable[..., AbstractAsyncContextManager[AppHost]]


@pytest.fixture
def open_host(browser: Browser, host_bundle: str) -> Opened:
    """`open_host(mode=..., client_options=..., **server_options)`: a host on an in-process server
    whose client draws apps, on the protocol revision `mode`."""

    @asynccontextmanager
    async def opened(
        mode: str = "legacy", client_options: dict[str, Any] | None = None, **server_options: Any
    ) -> AsyncIterator[AppHost]:
        client = Client(
            create_server(**server_options),
            mode=mode,
            extensions=[apps_extension()],
            **(client_options or {}),
        )
        async with (
            held(client) as connected_client,
            AppHost.opened(browser, connected_client, host_bundle) as host,
        ):
            yield host

    return opened


def question_in(frame: Frame, title: str = QUESTION["title"]) -> Any:
    return frame.get_by_role("group", name=title)


@pytest.mark.parametrize("mode", MODES)
async def test_the_app_draws_the_question_and_its_answer_ends_the_call(
    open_host: Opened, mode: str
) -> None:
    async with open_host(mode) as host:
        call = await host.show("provide_choice", QUESTION)
        assert call is not None
        frame = host.frame
        await expect(frame.get_by_role("heading", name="Database", level=1)).to_be_visible()
        await expect(frame.locator("#question-prompt strong")).to_have_text("nothing")
        options = question_in(frame).get_by_role("radio")
        await expect(options).to_have_count(3)
        await expect(question_in(frame).get_by_text("Recommended")).to_be_visible()
        await expect(question_in(frame).get_by_text("One file, no server")).to_be_visible()
        agent_markup = QUESTION["options"][2]["label"]
        await expect(question_in(frame).get_by_role("radio", name=agent_markup)).to_be_visible()
        await expect(frame.get_by_role("timer")).to_have_text(re.compile(r"^[45]:\d\d left$"))
        await question_in(frame).get_by_role("radio", name="SQLite").click()
        response = structured(await asyncio.wait_for(call, 15))
        await expect(frame.get_by_role("heading", name="Answer sent")).to_be_visible()
        assert host.foreign_requests() == []
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert response["selection"]["transport"] == "app"
    assert response["selection"]["summary"] == "Selected: SQLite."


async def test_once_answered_the_summary_goes_into_the_models_context(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION)
        await question_in(host.frame).get_by_role("radio", name="PostgreSQL").click()
        assert call is not None
        await asyncio.wait_for(call, 15)
        await host.until_recorded("modelContext", 1)
        assert await host.recorded("modelContext") == [
            {"content": [{"type": "text", "text": "Selected: PostgreSQL."}]}
        ]
        await host.show("provide_choice", QUESTION, model_context=False)
        second = host.frame
        await question_in(second).get_by_role("radio", name="SQLite").click()
        await expect(second.get_by_role("heading", name="Answer sent")).to_be_visible()
        assert len(await host.recorded("modelContext")) == 1, "a host that takes none gets none"


async def test_a_question_nobody_is_asked_says_so_in_the_view_at_once(open_host: Opened) -> None:
    policy = AnswerPolicy(unattended="the server runs unattended (CI is set)")
    async with open_host(policy=policy) as host:
        call = await host.show("provide_choice", QUESTION)
        assert call is not None
        response = structured(await asyncio.wait_for(call, 5))
        await expect(host.frame.locator("#waiting")).to_have_text(
            f"Not shown to anyone. {response['selection']['summary']}"
        )
    assert (response["action_status"], response["selection"]["transport"]) == ("unattended", None)


async def test_a_host_that_names_no_call_still_finds_the_question(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION, tool_info=False)
        await question_in(host.frame).get_by_role("radio", name="PostgreSQL").click()
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
    assert response["selection"]["selected_ids"] == ["pg"]


@pytest.mark.parametrize("mode", MODES)
async def test_pending_then_a_poll_returns_the_answer_given_in_the_app(
    open_host: Opened, mode: str
) -> None:
    async with open_host(mode, max_wait_seconds=0.5) as host:
        call = await host.show("provide_choice", QUESTION | {"single_submit_mode": False})
        assert call is not None
        pending = structured(await asyncio.wait_for(call, 15))
        assert pending["action_status"] == "pending"
        session = {"session_id": pending["selection"]["session_id"]}
        frame = host.frame
        await expect(frame.get_by_role("timer")).to_be_visible()
        await question_in(frame).get_by_role("radio", name="SQLite").click()
        await frame.get_by_role("button", name="Submit").click()
        await expect(frame.get_by_role("heading", name="Answer sent")).to_be_visible()
        # The host draws the app again for the poll, from its arguments: the session.
        poll = await host.show("provide_choice", session)
        assert poll is not None
        response = structured(await asyncio.wait_for(poll, 15))
        # The poll took the answer, and the question with it: the result says how it ended.
        await expect(host.frame.get_by_role("status")).to_have_text(
            "Answer sent. Selected: SQLite."
        )
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert response["selection"]["transport"] == "app"


async def test_a_poll_drawn_while_pending_is_answerable(open_host: Opened) -> None:
    async with open_host(max_wait_seconds=0.5) as host:
        call = await host.show("provide_choice", QUESTION)
        assert call is not None
        pending = structured(await asyncio.wait_for(call, 15))
        session = {"session_id": pending["selection"]["session_id"]}
        poll = await host.show("provide_choice", session)
        await question_in(host.frame).get_by_role("radio", name="PostgreSQL").click()
        assert poll is not None
        response = structured(await asyncio.wait_for(poll, 15))
        # A poll that ran out before the click is `pending` again: the agent polls once more.
        while response["action_status"] == "pending":
            response = structured(await host.client.call_tool("provide_choice", session))
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["pg"]


async def test_a_view_that_cannot_reach_the_server_tries_again(open_host: Opened) -> None:
    async with open_host() as host:
        await host.fail_tool_calls(2)
        call = await host.show("provide_choice", QUESTION)
        await expect(host.frame.locator("#waiting")).to_contain_text("cannot reach the server")
        await question_in(host.frame).get_by_role("radio", name="SQLite").click(timeout=15_000)
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
    assert response["selection"]["selected_ids"] == ["lite"]


async def test_a_call_the_host_cancels_ends_in_the_app(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION)
        frame = host.frame
        await expect(question_in(frame)).to_be_visible()
        assert call is not None
        call.cancel()  # the client cancels the call: the server hears notifications/cancelled
        await host.send_tool_cancelled("The person stopped the agent")
        ended = frame.get_by_role("status").filter(has_text="Cancelled in the conversation")
        await expect(ended).to_be_visible()
        await expect(frame.get_by_role("radio")).to_have_count(0)
        await expect(frame.get_by_role("button", name="Submit")).to_be_hidden()


async def test_a_call_cancelled_at_the_server_shows_in_the_app(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION)
        frame = host.frame
        await expect(question_in(frame)).to_be_visible()
        assert call is not None
        call.cancel()  # the host tells the app nothing: the app hears it from the server
        await expect(frame.get_by_role("heading", name="Cancelled by the agent")).to_be_visible()
        await expect(frame.get_by_role("radio")).to_have_count(0)


async def test_a_question_that_times_out_says_so_in_the_app(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION | {"timeout_seconds": 1})
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
        assert response["action_status"] == "timeout"
        await expect(host.frame.get_by_role("heading", name="Timed out")).to_be_visible()


async def test_a_question_asked_in_the_dialog_says_so_in_the_app(open_host: Opened) -> None:
    answered = asyncio.Event()

    async def dialog(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        await answered.wait()
        return types.ElicitResult(action="accept", content={"choice": "pg"})

    async with open_host(client_options={"elicitation_callback": dialog}) as host:
        call = await host.show("provide_choice", QUESTION | {"transport": "elicitation"})
        elsewhere = host.frame.locator("#waiting")
        await expect(elsewhere).to_have_text(
            "This question is asked elsewhere: the MCP client's own dialog."
        )
        answered.set()
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
        await expect(elsewhere).to_have_text("Answer sent. Selected: PostgreSQL.")
    assert response["selection"]["transport"] == "elicitation"


async def test_a_request_the_server_refuses_shows_its_problems_in_the_app(
    open_host: Opened,
) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION | {"min_selections": 2})
        assert call is not None
        assert (await asyncio.wait_for(call, 15)).is_error
        waiting = host.frame.locator("#waiting")
        await expect(waiting).to_contain_text("Invalid provide_choice request")
        await expect(waiting).to_contain_text("min_selections")
        await expect(host.frame.get_by_role("radio")).to_have_count(0)


async def test_the_keyboard_alone_answers(open_host: Opened) -> None:
    async with open_host() as host:
        call = await host.show("provide_choice", QUESTION | {"single_submit_mode": False})
        frame = host.frame
        first = question_in(frame).get_by_role("radio", name="PostgreSQL")
        await expect(first).to_be_visible()
        keyboard = host.page.keyboard
        for _ in range(10):
            await keyboard.press("Tab")
            if await first.evaluate("node => node === document.activeElement"):
                break
        await expect(first).to_be_focused()
        await keyboard.press("ArrowDown")
        await expect(question_in(frame).get_by_role("radio", name="SQLite")).to_be_checked()
        await keyboard.press("Enter")
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
    assert response["selection"]["selected_ids"] == ["lite"]


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_no_serious_accessibility_problem_in_either_theme(
    open_host: Opened, theme: str
) -> None:
    multi = QUESTION | {"selection_mode": "multi", "options": QUESTION["options"][:2]}
    async with open_host() as host:
        await host.show("provide_choice", multi, theme=theme)
        frame = host.frame
        await expect(question_in(frame)).to_be_visible()
        assert await serious_violations(frame) == []
        await question_in(frame).get_by_role("checkbox", name="SQLite").check()
        await frame.get_by_role("button", name="Submit").click()
        await expect(frame.get_by_role("heading", name="Answer sent")).to_be_visible()
        assert await serious_violations(frame) == []


async def test_the_frame_fits_the_question_as_it_grows(open_host: Opened) -> None:
    async with open_host() as host:
        await host.show("provide_choice", QUESTION)
        frame = host.frame
        await expect(question_in(frame)).to_be_visible()
        first = await host.fitted_height()
        await frame.get_by_text(
            "Settings", exact=True
        ).click()  # the panel opens: the frame grows with it
        await expect(frame.get_by_label("Timeout in seconds")).to_be_visible()
        assert await host.fitted_height() > first


async def test_the_app_follows_the_hosts_theme(open_host: Opened) -> None:
    async with open_host() as host:
        await host.show("provide_choice", QUESTION, theme="light")
        card = host.frame.locator("#question-form")
        await expect(card).to_have_css("background-color", "rgb(255, 255, 255)")
        await host.set_theme("dark")
        await expect(card).to_have_css("background-color", "rgb(38, 38, 36)")


async def test_regression_submit_sends_in_a_frame_sandboxed_without_forms(
    open_host: Opened,
) -> None:
    # The Submit button went through the form's submission, which a sandbox without allow-forms
    # (the test host's, as a host may draw apps) blocks: nothing was sent.
    async with open_host() as host:
        kept = {"default_selection_ids": ["pg"], "single_submit_mode": False}
        call = await host.show("provide_choice", QUESTION | kept)
        await host.frame.get_by_role("button", name="Submit").click()
        assert call is not None
        response = structured(await asyncio.wait_for(call, 15))
    assert response["selection"]["selected_ids"] == ["pg"]


async def test_screenshot_of_the_provide_choice_app_as_the_host_draws_it(
    open_host: Opened,
) -> None:
    checks = {
        "title": "Checks before the release",
        "prompt": "The release branch is ready. Which checks should run **before tagging**?",
        "selection_mode": "multi",
        "options": [
            {"id": "unit", "label": "Unit tests", "description": "2 minutes", "recommended": True},
            {"id": "e2e", "label": "Browser tests", "description": "Chromium, 3 minutes"},
            {"id": "bench", "label": "Benchmarks", "description": "Against the last release"},
        ],
        "default_selection_ids": ["unit"],
    }
    async with open_host() as host:
        await host.show("provide_choice", checks)
        await expect(question_in(host.frame, checks["title"])).to_be_visible()
        await keep_screenshot(host.page.locator("iframe"), "app-provide-choice.png")


@pytest.mark.parametrize("declared", ["dialog", "nothing"])
async def test_a_client_that_draws_no_apps_gets_the_dialog_then_the_page(
    tmp_path: Path, declared: str
) -> None:
    async def dialog(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"choice": "lite"})

    options: dict[str, Any] = {"elicitation_callback": dialog} if declared == "dialog" else {}
    request = QUESTION | {"transport": "app", "timeout_seconds": 2}
    async with connected("stdio", tmp_path, **options) as client:
        response = structured(await client.call_tool("provide_choice", request))
    note = "this MCP client draws no MCP Apps"
    if declared == "dialog":
        assert response["selection"]["transport"] == "elicitation"
        assert response["selection"]["selected_ids"] == ["lite"]
        where = "(Asked in the MCP client's own dialog: "
    else:
        assert response["selection"]["transport"] == "web"
        assert response["action_status"] == "timeout"
        where = "(Asked in the browser: "
    assert response["selection"]["summary"].endswith(")")
    assert where + note in response["selection"]["summary"]
