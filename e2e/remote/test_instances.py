"""Two `provide-choice serve --http --redis` instances on one Redis, driven as an agent (the MCP
SDK's own client) and a person (Chromium) drive them: a question asked on one instance is answered
on the other's page and the waiting call returns at once; an instance killed with its question
waiting loses nothing; two answers racing through two instances give one answer; Redis stopped and
started while a question waits loses nothing either, and both the agent and the person are told."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp_servers import call, call_on_page, http_client, structured
from playwright.async_api import BrowserContext, Page, WebSocketRoute, expect
from redis_server import RedisServer
from remote_instances import QUESTION, Instance, instance
from timing import bound

pytestmark = pytest.mark.asyncio(loop_scope="session")

SUBMITTED = {**QUESTION, "selection_mode": "multi", "title": "Which services go first?"}


async def opened(person: BrowserContext, address: str) -> Page:
    page = await person.new_page()
    await page.goto(address)
    return page


def answered_on_page(page: Page) -> Any:
    return expect(page.get_by_role("heading", name="Answer sent, you can close this tab"))


async def test_asked_on_one_instance_answered_on_the_others_page_the_call_returns_at_once(
    a: Instance, b: Instance, person: BrowserContext, public_url: str
) -> None:
    async with http_client(a.endpoint) as agent:
        asking, address = await call_on_page(agent, QUESTION)
        assert address.startswith(f"{public_url}/choice/")
        page = await opened(person, b.page(address))
        await expect(page).to_have_title(f"(1) {QUESTION['title']} — provide-choice")  # one waits
        await page.get_by_role("radio", name="Web").click()  # a single choice sends itself
        clicked = time.monotonic()
        result = structured(await asyncio.wait_for(asking, 10))
        waited = time.monotonic() - clicked
    assert waited < bound(2), (
        f"the call on the other instance returned {waited:.1f} s after the answer"
    )
    assert result["action_status"] == "selected"
    selection = result["selection"]
    assert (selection["selected_ids"], selection["summary"]) == (["web"], "Selected: Web.")
    assert (selection["transport"], selection["url"]) == ("web", address)  # as if answered on A
    await answered_on_page(page).to_be_visible()


async def test_an_instance_killed_with_its_question_waiting_loses_nothing(
    redis_server: RedisServer, b: Instance, person: BrowserContext, tmp_path: Path
) -> None:
    with instance(redis_server, tmp_path / "doomed", "--max-wait", "1") as doomed:
        async with http_client(doomed.endpoint) as agent:
            pending = await call(agent, QUESTION)
        doomed.kill()
    assert pending["action_status"] == "pending"
    session, address = pending["selection"]["session_id"], pending["selection"]["url"]
    page = await opened(person, b.page(address))
    await page.get_by_role("radio", name="API").click()
    await answered_on_page(page).to_be_visible()
    async with http_client(b.endpoint) as agent:
        polled = await call(agent, {"session_id": session})
        assert polled["action_status"] == "selected"
        assert polled["selection"]["selected_ids"] == ["api"]
        again = await agent.call_tool("provide_choice", {"session_id": session})
    assert again.is_error, "sessions are single-use, whatever instance the poll reaches"


async def test_two_answers_racing_through_two_instances_give_one_answer(
    a: Instance, b: Instance
) -> None:
    async with http_client(a.endpoint) as agent, httpx.AsyncClient() as person:
        for _round in range(3):
            asking, address = await call_on_page(agent, SUBMITTED)
            sent = await asyncio.gather(
                *(
                    person.post(one.page(address) + "/answer", json=answer(label))
                    for one, label in ((a, "api"), (b, "web"))
                )
            )
            assert sorted(response.status_code for response in sent) == [200, 409]
            (refused,) = [response for response in sent if response.status_code == 409]
            assert refused.json()["problems"] == [
                "this question was already answered (maybe on another page of it): yours was not "
                "sent"
            ]
            winner = ["api"] if sent[0].status_code == 200 else ["web"]
            result = structured(await asking)
            assert result["selection"]["selected_ids"] == winner


def answer(option: str) -> dict[str, Any]:
    return {"kind": "answered", "selected_ids": [option]}


async def test_a_page_that_answers_after_another_says_its_answer_was_not_sent(
    a: Instance, b: Instance, person: BrowserContext
) -> None:
    async with http_client(a.endpoint) as agent:
        asking, address = await call_on_page(agent, SUBMITTED)
        first, late = await opened(person, a.page(address)), await person.new_page()
        await late.route_web_socket("**/live", without_news)  # it has not heard of the answer
        await late.goto(b.page(address))
        for page, label in ((first, "API"), (late, "Web")):
            await page.get_by_role("checkbox", name=label).check()
        await first.get_by_role("button", name="Submit").click()
        await answered_on_page(first).to_be_visible()
        await late.get_by_role("button", name="Submit").click()
        await expect(
            late.get_by_role("heading", name="Already answered: your answer was not sent")
        ).to_be_visible()
        await expect(late.get_by_text("Selected: API.")).to_be_visible()  # the answer that counts
        result = structured(await asking)
    assert result["selection"]["selected_ids"] == ["api"]


def without_news(socket: WebSocketRoute) -> None:
    """The page's socket to its server, but for the states the server pushes after the first:
    a page on a slow connection, still showing the question after another page answered it."""
    server = socket.connect_to_server()
    states = 0

    def from_server(message: str | bytes) -> None:
        nonlocal states
        if json.loads(message)["type"] == "state":
            states += 1
            if states > 1:
                return
        socket.send(message)

    server.on_message(from_server)


async def test_redis_stopped_and_started_while_a_question_waits_loses_nothing(
    a: Instance, b: Instance, person: BrowserContext, redis_server: RedisServer
) -> None:
    async with http_client(a.endpoint) as agent:
        asking, address = await call_on_page(agent, SUBMITTED)
        page = await opened(person, b.page(address))
        await page.get_by_role("checkbox", name="Web").check()
        alert = page.locator("#store-problem")
        redis_server.stop()
        try:
            await expect(alert).to_have_attribute("role", "alert", timeout=10_000)
            await expect(alert).to_contain_text(
                f"the question store, Redis at {redis_server.url}, is unreachable", timeout=10_000
            )
            result = structured(await asking)
            assert result["action_status"] == "pending"
            assert (
                f"the question store, Redis at {redis_server.url}, is unreachable"
                in (result["selection"]["summary"])
            )
            session = result["selection"]["session_id"]
            await page.get_by_role("button", name="Submit").click()
            # The answer is refused once the store's own timeout has passed: slower on a busy machine.
            await expect(page.locator("#problems")).to_contain_text(
                "your answer was not sent", timeout=15_000
            )
        finally:
            redis_server.start()
        await expect(alert).to_be_hidden(timeout=10_000)
        await page.get_by_role("button", name="Submit").click()
        await answered_on_page(page).to_be_visible()
        # The instance that asked finds Redis back on its own (its listener tries every second):
        # polled before that, it answers at once, and rightly, that the store is unreachable.
        await reaches_its_store(a.page(address))
        polled = await call(agent, {"session_id": session})
    assert polled["action_status"] == "selected"
    assert polled["selection"]["selected_ids"] == ["web"]
    async with httpx.AsyncClient() as http:  # the page on the instance that asked says so too
        state = (await http.get(a.page(address) + "/state")).json()["state"]
    assert state["status"] == "answered"


async def reaches_its_store(page_url: str) -> None:
    """Return once the instance serving `page_url` says its store answers (at most 10 s)."""
    deadline = time.monotonic() + bound(10)
    async with httpx.AsyncClient() as http:
        while (await http.get(page_url + "/state")).json()["state"]["store_problem"] is not None:
            assert time.monotonic() < deadline, f"{page_url}: the store is still unreachable"
            await asyncio.sleep(0.1)
