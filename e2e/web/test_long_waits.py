"""Questions left longer than a client waits for one tool call.

The TypeScript SDK, the MCP Inspector and several desktop clients give up on a tool call after 60 s
and send no progress token. Here the SDK's own client calls with that 60 s read timeout, no progress
callback and `--no-browser` (so nobody is told the address but by the result), over stdio and over
HTTP: every call must come back in time, `pending` with the session and the page's address, and the
question must wait untouched for the next poll.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client
from mcp_servers import call, poll, text_of
from mcp_servers import connected as serving
from playwright.async_api import Browser, Page, expect

# A client's 60 s limit is the subject: these wait it out, as a client does (in a test process of
# their own: `scheduling.REAL_TIME_FILES`).
pytestmark = pytest.mark.asyncio(loop_scope="session")

CLIENT_TIMEOUT = 60.0
"""The TypeScript SDK's default request timeout (and the MCP Inspector's, which cannot change it)."""
QUESTION = {
    "title": "Release",
    "prompt": "The tests pass. Which checks should run before tagging?",
    "selection_mode": "multi",
    "options": [
        {"id": "unit", "label": "Unit tests", "recommended": True},
        {"id": "e2e", "label": "Browser tests"},
        {"id": "bench", "label": "Benchmarks"},
    ],
    "timeout_seconds": 120,
}


@asynccontextmanager
async def connected(transport: str, home: Path, *options: str) -> AsyncIterator[Client]:
    """A client with the 60 s limit, no progress callback, and `--no-browser` on the server."""
    async with serving(transport, home, *options, read_timeout_seconds=CLIENT_TIMEOUT) as client:
        yield client


def assert_pending(response: dict[str, Any], transport: str = "web") -> dict[str, Any]:
    selection: dict[str, Any] = response["selection"]
    assert response["action_status"] == "pending"
    assert selection["transport"] == transport
    assert re.fullmatch(r"[0-9a-f]{48}", selection["session_id"])
    assert selection["url"].startswith("http://127.0.0.1:")
    assert (
        f'provide_choice again with only {{"session_id": "{selection["session_id"]}"}}'
        in (selection["summary"])
    )
    return selection


async def state_of(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        state: dict[str, Any] = (await http.get(url + "/state")).json()["state"]
    return state


async def test_regression_a_question_left_for_a_minute_comes_back_pending_within_the_clients_limit(
    tmp_path: Path,
) -> None:
    # A 90 s question ended in the client with "Request timed out" at 60 s, and the SDK's cancel
    # closed the page. With the default --max-wait the call returns in time, the page stays open.
    async with connected("stdio", tmp_path) as client:
        started = time.monotonic()
        first = await call(client, QUESTION)
        waited = time.monotonic() - started
        selection = assert_pending(first)
        assert 45 < waited < CLIENT_TIMEOUT - 5
        state = await state_of(selection["url"])
        assert state["status"] == "pending"
        assert 120 - waited - 5 < state["seconds_left"] < 120 - waited + 1
        async with httpx.AsyncClient() as http:
            answer = {"kind": "answered", "selected_ids": ["e2e", "unit"]}
            assert (await http.post(selection["url"] + "/answer", json=answer)).is_success
        final = await poll(client, selection["session_id"])
        again = await client.call_tool("provide_choice", {"session_id": selection["session_id"]})
    assert final["action_status"] == "selected"
    assert final["selection"]["selected_ids"] == ["unit", "e2e"]
    assert final["selection"]["url"] == selection["url"]
    assert final["selection"]["session_id"] is None
    assert again.is_error
    assert "single-use" in text_of(again)


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_polls_leave_the_page_as_it_was_until_the_person_answers(
    transport: str, tmp_path: Path, browser: Browser
) -> None:
    async with connected(transport, tmp_path, "--max-wait", "3") as client:
        started = time.monotonic()
        selection = assert_pending(await call(client, QUESTION))
        assert 2.5 < time.monotonic() - started < 10
        url, session_id = selection["url"], selection["session_id"]
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(url)
        await checkbox(page, "Benchmarks").check()
        await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
        left_before = (await state_of(url))["seconds_left"]

        again = assert_pending(await poll(client, session_id))
        assert (again["session_id"], again["url"]) == (session_id, url)
        # The page is as the person left it: same question, same draft, the countdown running on.
        await expect(page.get_by_role("heading", name="Release")).to_be_visible()
        await expect(checkbox(page, "Benchmarks")).to_be_checked()
        await expect(page.locator("#question-form")).to_be_visible()
        state = await state_of(url)
        assert state["status"] == "pending"
        assert state["draft"]["selected_ids"] == ["bench"]
        assert left_before - 6 < state["seconds_left"] < left_before - 2

        assert_pending(await poll(client, session_id))  # pending twice, untouched
        await page.get_by_role("button", name="Submit").click()
        final = await poll(client, session_id)
        refused = await client.call_tool("provide_choice", {"session_id": session_id})
        await context.close()
    assert final["action_status"] == "selected"
    assert final["selection"]["selected_ids"] == ["bench"]
    assert final["selection"]["url"] == url
    assert refused.is_error
    assert "single-use" in text_of(refused)


def checkbox(page: Page, label: str) -> Any:
    return page.get_by_role("group", name="Release").get_by_role("checkbox", name=label)


async def test_a_handoff_poll_comes_back_pending_at_max_wait(tmp_path: Path) -> None:
    async with connected("stdio", tmp_path, "--max-wait", "2") as client:
        launch = await call(client, QUESTION | {"transport": "terminal"})
        assert launch["action_status"] == "pending_terminal_launch"
        session_id, url = launch["selection"]["session_id"], launch["selection"]["url"]
        started = time.monotonic()
        waiting = assert_pending(await poll(client, session_id), "terminal_handoff")
        assert 1.5 < time.monotonic() - started < 8
        assert (waiting["session_id"], waiting["url"]) == (session_id, url)
        async with httpx.AsyncClient() as http:  # what choice-terminal does
            assert (await http.post(url + "/attach", json={})).is_success
            answer = {"kind": "answered", "selected_ids": ["e2e"]}
            assert (await http.post(url + "/result", json=answer)).is_success
        final = await poll(client, session_id)
    assert final["action_status"] == "selected"
    assert final["selection"]["selected_ids"] == ["e2e"]
    assert final["selection"]["url"] == url
