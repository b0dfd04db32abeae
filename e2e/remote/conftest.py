"""What the tests of several instances share, once per session: a redis-server of their own, and
two `serve --http --redis` instances on it whose public URL is a port where the nginx test puts the
documented proxy in front of them (the other tests reach each instance on its own port, as that
proxy does); and a fresh browser context per test (a person at their browser)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext
from ports import free_port
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server
from remote_instances import Instance, instance

pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)

MAX_WAIT = "10"
"""Each instance's --max-wait: long enough for a person's page in Chromium, short enough for a
test that waits for `pending`."""


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="session")
def public_url() -> str:
    """Where the proxy of the nginx test listens: the instances' public URL."""
    return f"http://127.0.0.1:{free_port()}"


def _instance(
    name: str, redis: RedisServer, public_url: str, factory: pytest.TempPathFactory
) -> Iterator[Instance]:
    options = ("--public-url", public_url, "--max-wait", MAX_WAIT)
    with instance(redis, factory.mktemp(name), *options) as started:
        yield started


@pytest.fixture(scope="session")
def a(
    redis_server: RedisServer, public_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Instance]:
    yield from _instance("a", redis_server, public_url, tmp_path_factory)


@pytest.fixture(scope="session")
def b(
    redis_server: RedisServer, public_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Instance]:
    yield from _instance("b", redis_server, public_url, tmp_path_factory)


@pytest_asyncio.fixture(loop_scope="module")
async def person(browser: Browser) -> AsyncIterator[BrowserContext]:
    context = await browser.new_context()
    yield context
    await context.close()
