"""The README's picture of a question in Slack: a multiple choice the plug-in posted to the
stand-in Slack, one box ticked by the person, drawn as a rendered mock of the channel from the
Block Kit blocks the stand-in recorded (written into docs/ only with UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, expect
from screenshots import screenshot_path
from slack_api import StandInSlack, slack_environment, stand_in_slack
from slack_mock import channel_page
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
) -> AsyncIterator[tuple[StandInSlack, Server]]:
    with stand_in_slack() as api:
        monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
        for name, value in slack_environment(api).items():
            monkeypatch.setenv(name, value)
        running = start_server("slack")
        yield api, running
        await close_transports(running.transports)


async def test_screenshot_of_a_question_in_slack(
    server: tuple[StandInSlack, Server], browser: Browser
) -> None:
    api, running = server
    await running.ask(QUESTION, transport="slack", seconds=600)
    await api.until(lambda: api.channel_messages() != [], "posted the question")
    await api.connected()
    (message,) = api.channel_messages()
    person = api.person()
    person.ticks(message, "Login")
    await api.until(lambda: api.unacked() == [], "acked the tick")
    context = await browser.new_context(viewport={"width": 600, "height": 200})
    try:
        page = await context.new_page()
        await page.set_content(channel_page([(message, person.state(message))]))
        await expect(page.get_by_role("checkbox", name="Login")).to_be_checked()
        await expect(page.get_by_role("button", name="Submit")).to_be_visible()
        await expect(page.get_by_text("Choose 1 to 2 options")).to_be_visible()
        await expect(page.locator("b", has_text="v1.0").first).to_be_visible()
        await page.evaluate("document.fonts.ready")
        await page.screenshot(path=screenshot_path("slack.png"), full_page=True)
    finally:
        await context.close()
