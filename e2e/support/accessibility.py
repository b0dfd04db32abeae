"""The accessibility bar of the browser tests: an axe-core scan with no serious or critical findings
(and none at all where a test says so)."""

from __future__ import annotations

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Frame, Page

SERIOUS = ("serious", "critical")


async def violations(page: Page | Frame, impacts: tuple[str, ...] | None = None) -> list[str]:
    """axe-core's findings on the page (or an app's frame) as it is now, one line each: every one,
    or those of the given impacts."""
    results = await Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']}"
        for violation in results.response["violations"]
        if impacts is None or violation["impact"] in impacts
    ]


async def serious_violations(page: Page | Frame) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each."""
    return await violations(page, SERIOUS)
