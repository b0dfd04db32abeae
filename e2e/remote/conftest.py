"""Fixtures the tests of several instances share: a redis-server of their own, and a fresh browser
context per test (a person at their browser)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server

pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module")
async def person(browser: Browser) -> AsyncIterator[BrowserContext]:
    context = await browser.new_context()
    yield context
    await context.close()
