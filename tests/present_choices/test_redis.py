"""The one way this distribution reaches Redis (`present_choices._redis`) and shows its address
(`present_choices._addresses`): a server away fails fast, a server restarted costs no failed
command, redis-py loads only when a client is made, and no password is ever shown."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server

from present_choices._addresses import without_password
from present_choices._redis import TIMEOUT, connect

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:hunter2@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
        ("redis://alice:hunter2@host/1", "redis://alice:***@host/1"),
        ("rediss://reader:hunter2@redis.example.com", "rediss://reader:***@redis.example.com"),
        ("rediss://hunter2@host", "rediss://***@host"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("unix:///run/redis.sock", "unix:///run/redis.sock"),
        (
            "https://user:token@agents.example.com/v1?x=1",
            "https://user:***@agents.example.com/v1?x=1",
        ),
        # A password holding an "@": all of it is hidden, not the part before the last one.
        ("redis://:p@ss@host:6379", "redis://:***@host:6379"),
        # An "@" after the host is not a credential.
        ("https://host/path?mail=a@b.example", "https://host/path?mail=a@b.example"),
        ("not a url", "not a url"),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert without_password(url) == shown


def test_importing_the_helpers_loads_no_redis() -> None:
    code = (
        "import sys, present_choices._redis, present_choices._addresses\n"
        "print('redis' in sys.modules)"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert loaded.stdout.strip() == "False"


def test_a_client_fails_fast_and_tries_once_more_unless_told_otherwise() -> None:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    client = connect("redis://127.0.0.1:1/0")
    settings = client.connection_pool.connection_kwargs
    assert (settings["socket_connect_timeout"], settings["socket_timeout"]) == (TIMEOUT, TIMEOUT)
    assert settings["retry"].get_retries() == 1
    assert connect("redis://127.0.0.1:1/0", retries=0).get_retry().get_retries() == 0
    # A caller's options win: a listener waits for messages as long as it takes.
    listener = connect("redis://127.0.0.1:1/0", socket_timeout=None, decode_responses=True)
    assert listener.connection_pool.connection_kwargs["socket_timeout"] is None
    assert listener.get_encoder().decode_responses


def test_a_url_that_is_not_a_redis_one_is_refused() -> None:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    with pytest.raises(ValueError, match="Redis URL must specify one of the following schemes"):
        connect("http://127.0.0.1:1/0")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


async def test_a_server_away_fails_at_once(redis_server: RedisServer) -> None:
    from redis.exceptions import ConnectionError as ConnectionLost

    redis_server.stop()
    client = connect(redis_server.url)
    started = time.monotonic()
    try:
        with pytest.raises(ConnectionLost):
            await client.ping()
    finally:
        await client.aclose()
        redis_server.start()
    assert time.monotonic() - started < TIMEOUT


async def test_regression_a_restarted_server_costs_no_failed_command(
    redis_server: RedisServer,
) -> None:
    """The asyncio client was given redis-py's synchronous `Retry`, which it cannot run: the
    command on a connection that died with the server failed, second try promised or not."""
    from redis.exceptions import ConnectionError as ConnectionLost

    client = connect(redis_server.url, decode_responses=True)
    once = connect(redis_server.url, retries=0)
    try:
        await client.set("greeting", "hello")
        await once.ping()
        redis_server.stop()
        redis_server.start()
        # The pooled connection died with the server: the next command goes on a fresh one.
        assert await client.get("greeting") == "hello"
        with pytest.raises(ConnectionLost):  # unless no second try is wanted
            await once.ping()
    finally:
        await client.aclose()
        await once.aclose()
