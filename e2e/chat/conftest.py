"""Fixtures of the chat's browser tests in front of an AG-UI agent: the chat, and a fresh page on it.

A module gives its agent as the `agent` fixture (an `AGUIServer`); `chat_url` runs `choices-chat
--agent ag-ui` in front of it for the module, and `page` opens a fresh browser context on it (a new
conversation, so a new thread) once the chat has greeted. A module may give its own `chat_url`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio
from chat_harness import VIEWPORT, chat_server, log
from playwright.async_api import Browser, Page, expect

if TYPE_CHECKING:  # the AG-UI stand-in needs the ag-ui extra; the modules that use it skip without
    from agui_server import AGUIServer

GREETING = "You are chatting with the AG-UI agent at"


@pytest.fixture(scope="module")
def chat_url(agent: AGUIServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chat_server(
        ["--agent", "ag-ui", "--url", agent.url], tmp_path_factory.mktemp("chat")
    ) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser, chat_url: str) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(chat_url)
    await expect(log(page)).to_contain_text(GREETING)
    yield page
    await context.close()
