"""The chat's tab in a real Chromium (`choices-chat --agent demo`): the choices blocks waiting are
counted in its title, and once the person allowed notifications on this device (the test grants
the permission), a reply that ends with a choices block while the tab is in the background is a
notification."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from chat_harness import VIEWPORT, chat_server
from playwright.async_api import Browser, Page, expect
from web_notifications import BACKGROUND_TAB, RECORD_NOTIFICATIONS

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chat_server(["--agent", "demo"], tmp_path_factory.mktemp("chat-tab")) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(full_browser: Browser, server: str) -> AsyncIterator[Page]:
    # The full Chromium: the headless shell denies every page Web Notifications.
    context = await full_browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    await context.add_init_script(RECORD_NOTIFICATIONS + BACKGROUND_TAB)
    page = await context.new_page()
    await page.goto(server)
    yield page
    await context.close()


async def test_waiting_choices_count_in_the_title_and_notify_from_the_background(
    page: Page, server: str
) -> None:
    start = page.get_by_role("group", name="What shall we plan together?")
    await expect(start).to_be_visible()
    await expect(page).to_have_title("(1) Choices chat")
    notify = page.get_by_role("button", name="Notify me on this device")
    await expect(notify).to_be_visible()
    origin = re.match(r"http://[^/]+", server)
    assert origin is not None
    await page.context.grant_permissions(["notifications"], origin=origin.group(0))
    await notify.click()
    await expect(notify).to_be_hidden()

    await page.evaluate("hideTab(true)")
    await start.get_by_role("button", name="A side project").click()
    follow_up = page.get_by_role("group", name="What kind of project?")
    await expect(follow_up).to_be_visible()
    await expect(page).to_have_title("(1) Choices chat")
    await page.wait_for_function("window.shownNotifications.length > 0")
    assert await page.evaluate("window.shownNotifications") == [
        {"title": "Question waiting", "body": "What kind of project?"}
    ]

    await page.evaluate("hideTab(false)")
    await follow_up.get_by_role("button", name="Game").click()
    await expect(page.get_by_role("group", name="Shall we plan something else?")).to_be_visible()
    assert len(await page.evaluate("window.shownNotifications")) == 1, "not while it is seen"
