"""What every end-to-end test shares: the clock of the questions (`question_clock`), followed by every
process a test starts, and the browser."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from app_host import HostUnavailable, build_host_bundle
from chromium import launch_chromium
from playwright.async_api import Browser, async_playwright
from question_clock import CLOCK

from provide_choice._test_clock import VARIABLE

os.environ[VARIABLE] = str(CLOCK)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """One Chromium per test process; each test opens a context of its own in it (cookies, storage,
    permissions, viewport: nothing passes from one test to the next), and closes it.

    Launching one takes a second or two of a busy machine; the contexts take a fraction of that.
    The browser lives in the session's event loop, so every async test and fixture of e2e/ runs
    there (`loop_scope="session"`); a test module's servers still start and stop with it."""
    async with async_playwright() as playwright:
        browser = await launch_chromium(playwright)
        yield browser
        await browser.close()


@pytest.fixture
def try_mark(request: pytest.FixtureRequest) -> str:
    """ "" on a test's first try, " (try 2)" and on when `--reruns` runs it again. A test that finds
    what it made by its text in a store that outlives the test (a module's server, home or Redis)
    adds this to that text: a rerun then finds its own, not what its failed try left there."""
    count = getattr(request.node, "execution_count", 1)
    return "" if count <= 1 else f" (try {count})"


@pytest.fixture(scope="session")
def host_bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The MCP Apps test host for the browser, built once; the tests that draw apps skip, saying
    why, where Node is missing."""
    try:
        return build_host_bundle(tmp_path_factory.mktemp("app-host"))
    except HostUnavailable as missing:
        pytest.skip(str(missing))
