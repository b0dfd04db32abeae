"""The accessibility bar of the browser tests: an axe-core scan with no serious or critical findings."""

from __future__ import annotations

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Page


async def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    results = await Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
