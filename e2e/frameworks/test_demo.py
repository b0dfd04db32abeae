"""The documented Gradio and Streamlit examples on the demo agent, in a real Chromium: the demo's
questions as native buttons, a click or a key sends the option's value, and each block shows what
became of it (`✓ <label>`, "Answered by typing") with no button left to press."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from chat_harness import send
from framework_apps import GRADIO_COMMAND, OPTION_BUTTONS, STREAMLIT_COMMAND, example_server
from playwright.async_api import Page, expect
from screenshots import screenshot_path

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIRST = "What shall we plan together?"
FIRST_LABELS = ["A weekend trip", "Tonight's dinner", "A side project"]


@pytest.fixture(scope="module")
def app_url(framework: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    command = GRADIO_COMMAND if framework == "gradio" else STREAMLIT_COMMAND
    with example_server(command, tmp_path_factory.mktemp(framework)) as url:
        yield url


async def test_the_first_question_is_buttons_and_a_click_sends_the_value_screenshot(
    page: Page, framework: str
) -> None:
    await expect(page.get_by_text(FIRST)).to_be_visible()
    await expect(page.locator(OPTION_BUTTONS[framework])).to_have_text(FIRST_LABELS)
    for label in FIRST_LABELS:
        await expect(page.get_by_role("button", name=label, exact=True)).to_be_enabled()
    await page.get_by_role("button", name="Tonight's dinner", exact=True).click()
    await expect(page.get_by_text("Let's plan tonight's dinner", exact=True)).to_be_visible()
    await expect(page.get_by_text("What are you in the mood for?")).to_be_visible()
    await expect(page.locator(OPTION_BUTTONS[framework])).to_have_text(["Pasta", "Curry", "Salad"])
    await expect(page.get_by_text("✓ Tonight's dinner", exact=True)).to_be_visible()
    for label in FIRST_LABELS:  # the answered block has nothing left to press
        await expect(page.get_by_role("button", name=label, exact=True)).to_have_count(0)
    await page.evaluate("document.fonts.ready")
    await page.screenshot(path=screenshot_path(f"{framework}-chat.png"))


async def test_enter_and_space_on_a_focused_option_send_it(page: Page) -> None:
    await page.get_by_role("button", name="A side project", exact=True).focus()
    await page.keyboard.press("Enter")
    await expect(page.get_by_text("Let's plan a side project", exact=True)).to_be_visible()
    await page.get_by_role("button", name="Game", exact=True).focus()
    await page.keyboard.press("Space")
    await expect(page.get_by_text("Great choice: a tiny game")).to_be_visible()
    await expect(page.get_by_text("✓ Game", exact=True)).to_be_visible()


async def test_a_typed_message_outdates_the_waiting_block(page: Page, framework: str) -> None:
    await expect(page.locator(OPTION_BUTTONS[framework])).to_have_text(FIRST_LABELS)
    await send(page, "Something else entirely")
    await expect(page.get_by_text("Answered by typing", exact=True)).to_be_visible()
    await expect(page.get_by_text("I'm only a demo")).to_be_visible()
    # The demo asks its question again: the new block waits, the old one offers nothing.
    await expect(page.locator(OPTION_BUTTONS[framework])).to_have_text(FIRST_LABELS)
