"""Fixtures the Redis chat tests share: a redis-server of their own, the stand-in model server, and
a fresh browser context per test (see `redis_chat` for the instances)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from chat_harness import VIEWPORT
from extras import NEEDS_LLM_EXTRA
from model_server import ModelServer
from playwright.async_api import Browser, Page
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server


@pytest.fixture(scope="module", autouse=True)
def extras() -> None:
    """Skip, saying what to install, without the redis and llm extras. A fixture rather than an
    `importorskip` at the top of this file: a conftest that skips as it is imported is an error
    when its folder is named on the command line (`pytest e2e/chat_redis`)."""
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="module")
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser, model_server: ModelServer) -> AsyncIterator[Page]:
    """A fresh browser context: a new session cookie, so a new conversation."""
    model_server.replies.clear()
    model_server.requests.clear()
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    yield await context.new_page()
    await context.close()
