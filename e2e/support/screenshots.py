"""The documentation's pictures, taken by the browser tests that bring a page to the state shown.

Only `make screenshots` (`UPDATE_SCREENSHOTS=1`) takes them, into docs/: a plain test run takes
none. A picture is no check (whether the page renders what it should is what the test's own
assertions say), and taking one costs a full render and a PNG for nothing; a plain run must also
leave the checkout clean, and the pictures would change on every run (a countdown, a timestamp).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.async_api import Locator, Page

DOCS = Path(__file__).resolve().parents[2] / "docs"


def taking_screenshots() -> bool:
    """Whether this run takes the documentation's pictures (`make screenshots`)."""
    return os.environ.get("UPDATE_SCREENSHOTS") == "1"


async def keep_screenshot(target: Page | Locator, name: str, **options: Any) -> None:
    """Save `target` (a page, or the part of one a locator finds) as docs/`name`, with Playwright's
    screenshot `options` (`full_page=True`, say), when this run takes the pictures; else nothing."""
    if taking_screenshots():
        await target.screenshot(path=DOCS / name, **options)
