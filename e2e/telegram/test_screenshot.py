"""The README's picture of a question in Telegram: a multiple choice the plug-in sent to the
stand-in Bot API, one option ticked by the person, drawn as a rendered mock of the chat from the
messages the stand-in recorded (written into docs/ only with UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, expect
from screenshots import screenshot_path
from telegram_api import StandInBotApi, stand_in_bot_api, telegram_environment
from telegram_mock import chat_page
from telegram_server import Server, start_server

from provide_choice._transports._base import close_transports

pytestmark = pytest.mark.asyncio(loop_scope="module")

QUESTION = {
    "title": "First release",
    "prompt": "Which features go into **v1.0**? The release is cut on Friday; the rest waits "
    "for `v1.1`.",
    "selection_mode": "multi",
    "min_selections": 1,
    "max_selections": 2,
    "options": [
        {"id": "auth", "label": "Login", "description": "SSO and passwords", "recommended": True},
        {"id": "search", "label": "Search", "description": "full text, 2 days of work"},
        {"id": "export", "label": "Export", "description": "CSV and JSON"},
    ],
}


@pytest_asyncio.fixture(loop_scope="module")
async def server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> AsyncIterator[tuple[StandInBotApi, Server]]:
    with stand_in_bot_api() as api:
        monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
        for name, value in telegram_environment(api).items():
            monkeypatch.setenv(name, value)
        running = start_server()
        yield api, running
        await close_transports(running.transports)


async def test_screenshot_of_a_question_in_telegram(
    server: tuple[StandInBotApi, Server], browser: Browser
) -> None:
    api, running = server
    await running.ask(QUESTION, seconds=600)
    await api.until(lambda: api.bot_messages() != [], "sent the question")
    (card,) = api.bot_messages()
    person = api.person()
    await person.toast(person.presses(card, "Login"))
    context = await browser.new_context(viewport={"width": 470, "height": 200})
    try:
        page = await context.new_page()
        await page.set_content(chat_page(api.bot_messages()))
        await expect(page.get_by_role("button", name="☑ Login")).to_be_visible()
        await expect(page.get_by_role("button", name="Done")).to_be_visible()
        await expect(page.get_by_text("Choose 1 to 2 options")).to_be_visible()
        await page.evaluate("document.fonts.ready")
        await page.screenshot(path=screenshot_path("telegram.png"), full_page=True)
    finally:
        await context.close()
