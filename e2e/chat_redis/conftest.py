"""Fixtures the Redis chat tests share: a redis-server of their own and the stand-in model server
(see `redis_chat` for the instances)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from extras import NEEDS_LLM_EXTRA
from model_server import ModelServer
from redis_server import NEEDS_REDIS_EXTRA, NEEDS_REDIS_SERVER, RedisServer, redis_server_path

pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    executable = redis_server_path()
    if executable is None:
        pytest.skip(NEEDS_REDIS_SERVER)
    with RedisServer(tmp_path_factory.mktemp("redis"), executable) as server:
        yield server


@pytest.fixture(scope="module")
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server
