"""Fixtures of the Gradio and Streamlit examples' browser tests: each module's servers, one per
framework (its tests run against both), and a fresh browser context per test (a new conversation)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from chat_harness import VIEWPORT
from framework_apps import FRAMEWORKS
from playwright.async_api import Browser, Dialog, Page


@pytest.fixture(scope="module", params=FRAMEWORKS)
def framework(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser, app_url: str) -> AsyncIterator[Page]:
    """A fresh page on the module's app, failing the test if agent text ever opens a dialog."""
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    dialogs: list[str] = []

    async def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.dismiss()

    page.on("dialog", record)
    await page.goto(app_url)
    yield page
    await context.close()
    assert dialogs == [], "agent text ran as script"
