"""The `app` transport through the MCP SDK's own client, as a host that draws apps calls it: where
a question goes, the app-only tool `provide_choice_app` (finding the question from the call's
arguments, the page's messages, the same checks as every surface), on both protocol revisions.
What the view does with it is tested in a browser, in e2e/apps/."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp_types import CallToolResult

from provide_choice import create_server
from provide_choice._contract._transport_table import ClientFeatures
from provide_choice._transports._app import _questions
from provide_choice._transports._app._tool import GONE
from provide_choice._transports._registry import choose_transport

QUESTION: dict[str, Any] = {
    "title": "Database",
    "prompt": "Which database should I set up? **Both** work.",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
DRAWS_APPS = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})
MODES = ["legacy", "2026-07-28"]

APPS = ClientFeatures(apps=True)
APPS_AND_DIALOG = ClientFeatures(form=True, apps=True)
DIALOG = ClientFeatures(form=True)
NOTHING = ClientFeatures()


@pytest.mark.parametrize(
    ("requested", "preferred", "terminal", "client", "chosen"),
    [
        (None, "auto", False, APPS, "app"),
        (None, "auto", False, APPS_AND_DIALOG, "app"),
        (None, "auto", True, APPS, "terminal"),
        (None, "auto", False, DIALOG, "elicitation"),
        (None, "app", True, APPS, "app"),
        (None, "app", True, DIALOG, "terminal"),
        (None, "app", False, DIALOG, "elicitation"),
        (None, "app", False, NOTHING, "web"),
        (None, "web", False, APPS, "web"),
        ("app", "terminal", True, APPS, "app"),
        ("app", "auto", True, DIALOG, "elicitation"),
        ("app", "auto", True, NOTHING, "web"),
        ("web", "app", False, APPS, "web"),
    ],
)
def test_where_a_question_goes_when_the_client_draws_apps(
    requested: Any, preferred: Any, terminal: bool, client: ClientFeatures, chosen: str
) -> None:
    configured = {"terminal_handoff", "web", "elicitation", "app"} | (
        {"terminal"} if terminal else set()
    )
    choice = choose_transport(requested, preferred, configured.__contains__, client)
    assert choice is not None
    assert choice.transport == chosen
    fell_back = requested == "app" and chosen != "app"
    assert (choice.note is not None) == fell_back
    if fell_back:
        assert "this MCP client draws no MCP Apps" in (choice.note or "")


@asynccontextmanager
async def host(mode: str = "legacy", **server_options: Any) -> AsyncIterator[Client]:
    """An in-process server and the client of a host that draws apps."""
    async with Client(
        create_server(**server_options), mode=mode, extensions=[DRAWS_APPS]
    ) as client:
        yield client


async def app_tool(client: Client, **message: Any) -> CallToolResult:
    return await client.call_tool("provide_choice_app", message)


def reply(result: CallToolResult) -> dict[str, Any]:
    body = result.structured_content
    assert body is not None
    return body


@pytest.mark.parametrize("mode", MODES)
async def test_the_view_finds_its_question_and_its_answer_ends_the_call(mode: str) -> None:
    async with host(mode) as client:
        call = asyncio.create_task(client.call_tool("provide_choice", QUESTION))
        opened = await app_tool(client, type="open", arguments=QUESTION)
        assert not opened.is_error, opened
        found = reply(opened)
        assert found["title"] == "Database"
        assert (
            found["prompt_html"]
            == "<p>Which database should I set up? <strong>Both</strong> work.</p>\n"
        )
        assert found["state"]["status"] == "pending"
        assert [option["id"] for option in found["state"]["options"]] == ["pg", "lite"]
        assert found["state"]["inbox_url"] is None
        answer = {"kind": "answered", "selected_ids": ["lite"]}
        sent = await app_tool(client, type="answer", question_id=found["question_id"], data=answer)
        assert not sent.is_error
        assert reply(sent)["state"]["status"] == "answered"
        result = await asyncio.wait_for(call, 5)
    response = reply(result)
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert response["selection"]["transport"] == "app"


async def test_a_view_may_ask_before_the_call_has_opened_its_question() -> None:
    async with host() as client:
        opening = asyncio.create_task(app_tool(client, type="open", arguments=QUESTION))
        await asyncio.sleep(0.2)
        call = asyncio.create_task(client.call_tool("provide_choice", QUESTION))
        found = reply(await asyncio.wait_for(opening, 5))
        answer = {"kind": "cancelled"}
        await app_tool(client, type="answer", question_id=found["question_id"], data=answer)
        response = reply(await asyncio.wait_for(call, 5))
    assert response["action_status"] == "cancelled"
    assert response["selection"]["transport"] == "app"


async def test_an_answer_that_does_not_fit_is_refused_to_the_view_and_the_call_waits_on() -> None:
    async with host() as client:
        call = asyncio.create_task(client.call_tool("provide_choice", QUESTION))
        found = reply(await app_tool(client, type="open", arguments=QUESTION))
        question_id = found["question_id"]
        misfit = {"kind": "answered", "selected_ids": ["pg", "nope"]}
        refused = await app_tool(client, type="answer", question_id=question_id, data=misfit)
        assert refused.is_error
        assert reply(refused)["problems"] == [
            "selected_ids: 'nope' is not an option id",
            "selected_ids must hold 1 id, got 2",
        ]
        await asyncio.sleep(0.1)
        assert not call.done(), "a misfit never reaches the agent's result"
        fits = {"kind": "answered", "selected_ids": ["pg"]}
        await app_tool(client, type="answer", question_id=question_id, data=fits)
        response = reply(await asyncio.wait_for(call, 5))
    assert response["selection"]["selected_ids"] == ["pg"]


async def test_the_view_saves_drafts_and_settings_as_the_page_does(home: Any) -> None:
    async with host() as client:
        call = asyncio.create_task(client.call_tool("provide_choice", QUESTION))
        question_id = reply(await app_tool(client, type="open", arguments=QUESTION))["question_id"]
        draft = {"selected_ids": ["lite"], "custom_input": ""}
        saved = reply(await app_tool(client, type="draft", question_id=question_id, data=draft))
        assert saved["state"]["draft"]["selected_ids"] == ["lite"]
        changed = {"transport": "app"}
        await app_tool(client, type="settings", question_id=question_id, data=changed)
        state = reply(await app_tool(client, type="state", question_id=question_id))["state"]
        assert state["settings"]["transport"] == "app"
        choices = dict(map(tuple, state["setting_choices"]["transport"]["choices"]))  # type: ignore[arg-type]
        assert choices["app"].startswith("In the conversation")
        call.cancel()
    assert '"transport": "app"' in (home / "settings.json").read_text()


@pytest.mark.parametrize("mode", MODES)
async def test_pending_then_the_view_of_the_poll_finds_the_same_question(mode: str) -> None:
    async with host(mode, max_wait_seconds=0.2) as client:
        pending = reply(await client.call_tool("provide_choice", QUESTION))
        assert pending["action_status"] == "pending"
        session = pending["selection"]["session_id"]
        found = reply(await app_tool(client, type="open", arguments={"session_id": session}))
        assert found["question_id"] == session
        answer = {"kind": "answered", "selected_ids": ["pg"]}
        await app_tool(client, type="answer", question_id=session, data=answer)
        response = reply(await client.call_tool("provide_choice", {"session_id": session}))
    assert response["action_status"] == "selected"
    assert response["selection"]["transport"] == "app"


async def test_two_views_of_the_same_question_asked_twice_find_one_each() -> None:
    async with host() as client:
        calls = [asyncio.create_task(client.call_tool("provide_choice", QUESTION)) for _ in "12"]
        await asyncio.sleep(0.2)
        first = reply(await app_tool(client, type="open", arguments=QUESTION))["question_id"]
        second = reply(await app_tool(client, type="open", arguments=QUESTION))["question_id"]
        again = reply(await app_tool(client, type="open", arguments=QUESTION))["question_id"]
        assert first != second
        assert again in (first, second), "a view drawn again finds one of them"
        for call in calls:
            call.cancel()


async def test_a_question_asked_elsewhere_is_said_where(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_questions, "FIND_SECONDS", 1.0)  # the call is refused long before
    async with host() as client:
        call = asyncio.create_task(
            client.call_tool(
                "provide_choice", QUESTION | {"transport": "web", "timeout_seconds": 1}
            )
        )
        opened = await app_tool(client, type="open", arguments=QUESTION | {"transport": "web"})
        await asyncio.wait_for(call, 5)
    # This server has no page: the call says so, and the view finds no question.
    assert opened.is_error
    assert reply(opened)["problems"] == [_questions.NOT_ASKED]


async def test_arguments_that_ask_nothing_get_the_calls_own_problems(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_questions, "FIND_SECONDS", 0.1)
    async with host() as client:
        invalid = await app_tool(client, type="open", arguments={"title": "x"})
        nothing = await app_tool(client, type="open", arguments=QUESTION)
        gone = await app_tool(client, type="open", arguments={"session_id": "s-1"})
        unknown = await app_tool(client, type="state", question_id="s-1")
        malformed = await client.call_tool("provide_choice_app", {"type": "shout"})
    assert invalid.is_error
    assert "prompt" in " ".join(reply(invalid)["problems"])
    assert reply(nothing)["problems"] == [_questions.NOT_ASKED]
    assert reply(gone)["problems"] == [_questions.NO_SESSION]
    assert reply(unknown)["problems"] == [GONE]
    assert malformed.is_error
    assert reply(malformed)["problems"][0].startswith("type ")
