"""What every end-to-end test shares: the clock of the questions (`question_clock`), followed by every
process a test starts, and the browser."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from app_host import HostUnavailable, build_host_bundle
from chromium import chromium_executable, launch_chromium
from playwright.async_api import Browser, Playwright, async_playwright
from question_clock import CLOCK
from scheduling import RealTimeApart, waits_in_real_time
from xdist.remote import Producer

from provide_choice._test_clock import VARIABLE

os.environ[VARIABLE] = str(CLOCK)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The test files in the order the test processes take them (`make e2e` runs them with
    `--dist loadfile --no-loadscope-reorder`): first those that wait out real time
    (`scheduling.REAL_TIME_FILES`), so that their waiting overlaps the other processes' work
    instead of ending the run alone, then the files with the most tests first. Within a file, as
    written; the tests outside e2e/ (a bare `pytest` runs both) first, as they were."""
    here = Path(__file__).parent
    others: list[pytest.Item] = []
    files: dict[Path, list[pytest.Item]] = defaultdict(list)
    for item in items:
        (files[item.path] if item.path.is_relative_to(here) else others).append(item)

    def order(path: Path) -> tuple[bool, int]:
        tests = files[path]
        return not waits_in_real_time(tests[0].nodeid.split("::")[0]), -len(tests)

    items[:] = others + [item for path in sorted(files, key=order) for item in files[path]]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> RealTimeApart | None:
    """`--dist loadfile` keeps the files that wait in real time in a process of their own."""
    return RealTimeApart(config, log) if config.getvalue("dist") == "loadfile" else None


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def playwright() -> AsyncIterator[Playwright]:
    async with async_playwright() as playwright:
        yield playwright


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(playwright: Playwright) -> AsyncIterator[Browser]:
    """One Chromium per test process (its headless shell, where there is one); each test opens a
    context of its own in it (cookies, storage, permissions, viewport: nothing passes from one test
    to the next), and closes it.

    Launching one takes a second or two of a busy machine; the contexts take a fraction of that.
    The browser lives in the session's event loop, so every async test and fixture of e2e/ runs
    there (`loop_scope="session"`); a test module's servers still start and stop with it."""
    browser = await launch_chromium(playwright)
    yield browser
    await browser.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def full_browser(playwright: Playwright, browser: Browser) -> AsyncIterator[Browser]:
    """The full Chromium, for the tests of Web Notifications (the headless shell denies them):
    launched in the test processes that run one, and `browser` itself where that is already the
    full Chromium."""
    if chromium_executable(notifications=True) == chromium_executable():
        yield browser
        return
    full = await launch_chromium(playwright, notifications=True)
    yield full
    await full.close()


ERROR_LINE = re.compile(r"(E\s+)?[A-Za-z_][\w.]*(Error|Exception|Exit)\b")
"""A traceback's line naming the error it ended with (`AssertionError: ...`, `E   TimeoutError`)."""
_RERUNS: list[str] = []
"""Why each test that was run again (`--reruns`) failed its try: the summary names it only."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.outcome == "rerun":
        _RERUNS.append(f"{report.nodeid} ({report.when}): {_where_and_why(report.longreprtext)}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _RERUNS:
        terminalreporter.section("why tests were run again")
        for line in _RERUNS:
            terminalreporter.write_line(line)


def _where_and_why(traceback: str) -> str:
    """The last line of e2e/ in a failure's traceback, and the error it ended with."""
    lines = [line.strip() for line in traceback.splitlines() if line.strip()]
    ours = [line for line in lines if line.startswith("File ") and "/e2e/" in line]
    errors = [line for line in lines if ERROR_LINE.match(line)] or lines or ["no traceback"]
    return f"{ours[-1]}: {errors[-1][:300]}" if ours else errors[-1][:300]


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
