"""Fixtures every browser test module shares."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from chromium import launch_chromium
from playwright.async_api import Browser, async_playwright


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium per test module; each test opens its own context in it."""
    async with async_playwright() as playwright:
        browser = await launch_chromium(playwright)
        yield browser
        await browser.close()
