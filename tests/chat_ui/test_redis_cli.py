"""`choices-chat --redis URL`: the shared cookie secret, the Redis it checks before serving, and the
store every page then uses; each mistake exits 2 with one line, the URL never with its password."""

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chat_cli import exit_message
from nicegui import ui
from nicegui.storage import Storage
from ports import free_port
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server

import chat_ui.__main__ as cli
from chat_ui.__main__ import main

SECRET = "a-secret-shared-by-every-instance-of-the-chat"


@pytest.fixture(autouse=True)
def no_configuration(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NICEGUI_REDIS_URL", raising=False)
    monkeypatch.delenv("CHOICES_CHAT_STORAGE_SECRET", raising=False)
    monkeypatch.setenv("NICEGUI_STORAGE_PATH", str(tmp_path / "storage"))
    monkeypatch.setattr(cli, "_claim_port", lambda host, port: 8080)
    # main() sets both; restored afterwards
    monkeypatch.setattr(Storage, "path", Storage.path)
    monkeypatch.setattr(Storage, "redis_url", Storage.redis_url)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


def served(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[dict[str, Any], Any]:
    """Run `main(argv)` with its page built at once and nothing served: what `ui.run` got, and the
    store the page was given."""
    stores: list[Any] = []
    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(ui, "page", lambda path, **options: lambda page: page())
    monkeypatch.setattr(cli, "chat_page", lambda agent, **options: stores.append(options))
    monkeypatch.setattr(ui, "run", lambda **options: runs.append(options))
    monkeypatch.setattr("chat_ui._nicegui._redis_store.RedisStore.conversation", lambda self: self)
    main(argv)
    (run,) = runs
    (options,) = stores
    return run, options.get("store")


def test_without_the_shared_secret_it_exits_2_saying_what_to_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    message = exit_message(["--redis", "redis://127.0.0.1:6379/0"], capsys)
    assert message.count("\n") == 1
    assert message.startswith("choices-chat: --redis needs $CHOICES_CHAT_STORAGE_SECRET")
    assert "same on every instance" in message


def test_an_unreachable_redis_exits_2_within_seconds_naming_it_without_its_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    start = time.monotonic()
    message = exit_message(["--redis", url], capsys)
    assert time.monotonic() - start < 10
    assert message.count("\n") == 1
    assert message.startswith(
        f"choices-chat: cannot reach Redis at {url.replace('hunter2', '***')}"
    )
    assert "hunter2" not in message


def test_a_url_that_is_not_a_redis_one_exits_2_saying_what_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    message = exit_message(["--redis", "http://user:hunter2@127.0.0.1:6379"], capsys)
    assert message.count("\n") == 1
    assert "is not a Redis URL" in message
    assert "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]" in message
    assert "hunter2" not in message


def test_without_the_redis_extra_it_says_how_to_add_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    monkeypatch.setitem(
        sys.modules, "chat_ui._stores._redis_store", None
    )  # as if redis were missing
    message = exit_message(["--redis", "redis://127.0.0.1:6379/0"], capsys)
    assert "--redis needs the redis extra" in message
    assert ".[redis]" in message


def test_with_redis_every_page_gets_the_redis_store_and_the_shared_secret(
    monkeypatch: pytest.MonkeyPatch, redis_server: RedisServer
) -> None:
    from chat_ui import RedisStore

    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    Storage.redis_url = redis_server.url  # as NiceGUI reads $NICEGUI_REDIS_URL
    run, store = served(monkeypatch, ["--redis", redis_server.url])
    assert isinstance(store, RedisStore)
    assert store.url == redis_server.url
    assert run["storage_secret"] == SECRET
    assert Storage.redis_url is None, "NiceGUI's own storage keeps nothing in Redis"


def test_nicegui_s_redis_variable_is_the_default(
    monkeypatch: pytest.MonkeyPatch, redis_server: RedisServer
) -> None:
    from chat_ui import RedisStore

    monkeypatch.setenv("NICEGUI_REDIS_URL", redis_server.url)
    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    _, store = served(monkeypatch, [])
    assert isinstance(store, RedisStore)


def test_without_redis_the_local_store_and_secret_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHOICES_CHAT_STORAGE_SECRET", SECRET)
    run, store = served(monkeypatch, [])
    assert store is None, "chat_page's default: LocalStore, this browser's"
    assert run["storage_secret"] != SECRET
