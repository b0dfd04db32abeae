"""`choices-chat --agent demo` in a real Chromium: the reply streams, and the demo follows up."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from chat_harness import VIEWPORT, chat_server
from playwright.async_api import Browser, Page, expect

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chat_server(["--agent", "demo"], tmp_path_factory.mktemp("chat-demo")) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser, server: str) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(server)
    yield page
    await context.close()


async def test_the_demo_streams_follows_up_and_uses_the_chosen_value(page: Page) -> None:
    log = page.get_by_role("log")
    thinking = page.get_by_role("status").filter(has_text="Thinking…")
    send = page.get_by_role("button", name="Send")
    start = page.get_by_role("group", name="What shall we plan together?")
    await expect(start).to_be_visible()
    await expect(thinking).to_be_hidden()
    await expect(send).to_be_enabled()

    await start.get_by_role("button", name="A side project").click()
    await expect(log.locator(".chat-message--user .chat-bubble")).to_have_text(
        ["Let's plan a side project"]
    )
    await expect(thinking).to_be_visible()
    await expect(send).to_be_disabled()
    await expect(page.get_by_text("preparing choices...")).to_be_visible()
    follow_up = page.get_by_role("group", name="What kind of project?")
    await expect(follow_up).to_be_visible()
    await expect(page.get_by_text("preparing choices...")).to_be_hidden()
    await expect(thinking).to_be_hidden()
    await expect(send).to_be_enabled()

    await follow_up.get_by_role("button", name="Game").click()
    await expect(log).to_contain_text("Great choice: a tiny game")
    await expect(log.locator("code.language-python")).to_contain_text("random.randint")
    await expect(page.get_by_role("group", name="Shall we plan something else?")).to_be_visible()
