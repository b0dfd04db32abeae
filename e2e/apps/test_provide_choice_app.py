"""provide_choice in the conversation, in the test host built on the official host side."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from app_host import AppHost, apps_extension
from mcp import Client
from mcp_servers import held, structured
from playwright.async_api import Browser, expect

from provide_choice import create_server

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUESTION: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage and **nothing** is configured. Which database?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "description": "scales", "recommended": True},
        {"id": "lite", "label": "SQLite", "description": "one file"},
    ],
}


@pytest_asyncio.fixture(loop_scope="module")
async def host(browser: Browser, host_bundle: str) -> AsyncIterator[AppHost]:
    client = Client(create_server(), extensions=[apps_extension()])
    async with held(client) as connected, AppHost.opened(browser, connected, host_bundle) as opened:
        yield opened


async def test_a_single_choice_answered_in_the_app(host: AppHost) -> None:
    call = await host.show("provide_choice", QUESTION)
    assert call is not None
    frame = host.frame
    group = frame.get_by_role("group", name="Database")
    await expect(group).to_be_visible()
    await group.get_by_role("radio", name="SQLite").click()
    response = structured(await asyncio.wait_for(call, 15))
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["lite"]
    assert response["selection"]["transport"] == "app"
    await expect(frame.get_by_role("heading", name="Answer sent")).to_be_visible()
