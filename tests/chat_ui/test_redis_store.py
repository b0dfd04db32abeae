"""`RedisStore` against a real redis-server of the test's own: one list per conversation, appends
one message at a time, a draft replaced where it is (never a message after it), and the URL shown
without its password."""

from collections.abc import AsyncIterator, Iterator

import pytest
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server

pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)

from redis.exceptions import ConnectionError as RedisConnectionError

from chat_ui import Message, RedisStore
from chat_ui._stores._redis_store import APPENDS_KEPT, KEY_PREFIX, check_reachable
from present_choices._addresses import without_password


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
async def store(redis_server: RedisServer) -> AsyncIterator[RedisStore]:
    store = RedisStore(redis_server.url)
    await store.client.flushdb()
    yield store
    await store.close()


def said(text: str, **more: object) -> Message:
    return {"role": "assistant", "content": text, **more}  # type: ignore[typeddict-item]


async def test_each_conversation_is_a_list_appended_one_message_at_a_time(
    store: RedisStore,
) -> None:
    mine, theirs = store.conversation("browser-1"), store.conversation("browser-2")
    await mine.append({"role": "user", "content": "héllo ```choices"})
    await mine.append(said("hi"))
    await theirs.append(said("other"))
    assert await mine.load() == [{"role": "user", "content": "héllo ```choices"}, said("hi")]
    assert await theirs.load() == [said("other")]
    assert await store.client.type(f"{KEY_PREFIX}browser-1") == b"list"
    await mine.clear()
    assert await mine.load() == []
    assert await theirs.load() == [said("other")]


async def test_a_draft_is_replaced_where_it_is_and_nothing_after_it(store: RedisStore) -> None:
    conversation = store.conversation("browser")
    draft = said("Half", streaming="reply-1")
    await conversation.append({"role": "user", "content": "question"})
    await conversation.append(draft)
    await conversation.append({"role": "user", "content": "sent from another tab"})
    assert await conversation.replace(draft, said("Half and the rest"))
    assert await conversation.load() == [
        {"role": "user", "content": "question"},
        said("Half and the rest"),
        {"role": "user", "content": "sent from another tab"},
    ]
    assert not await conversation.replace(draft, said("again")), "it is no longer there"
    await conversation.clear()
    assert not await conversation.replace(said("Half and the rest"), said("x"))
    assert await conversation.load() == [], "a cleared conversation stays cleared"


async def test_a_stopped_server_fails_calls_which_work_again_once_it_is_back(
    store: RedisStore, redis_server: RedisServer
) -> None:
    conversation = store.conversation("browser")
    await conversation.append(said("before"))
    redis_server.stop()
    try:
        with pytest.raises(RedisConnectionError):
            await conversation.append(said("while away"))
        with pytest.raises(RedisConnectionError):
            await check_reachable(redis_server.url)
    finally:
        redis_server.start()
    await conversation.append(said("after"))
    assert await conversation.load() == [said("before"), said("after")]


async def test_an_append_whose_answer_was_lost_is_kept_once_when_tried_again(
    store: RedisStore,
) -> None:
    # Redis can apply a write and go away before its answer arrives (a restart, the network):
    # the write fails for the caller, who tries it again (redis-py once, then the save queue).
    conversation = store.conversation("browser")
    sent = store.client.execute_command
    answers_lost = 1

    async def answer_lost_once(*arguments: object, **options: object) -> object:
        nonlocal answers_lost
        answer = await sent(*arguments, **options)
        if answers_lost:
            answers_lost -= 1
            raise RedisConnectionError("Connection closed by server.")
        return answer

    store.client.execute_command = answer_lost_once  # type: ignore[method-assign]
    with pytest.raises(RedisConnectionError):
        await conversation.append(said("yes"))
    await conversation.append(said("yes"))  # the same write, tried again
    assert await conversation.load() == [said("yes")]
    await conversation.append(said("yes"))  # a new message that says the same
    assert await conversation.load() == [said("yes"), said("yes")]


async def test_the_ids_of_appends_kept_beside_a_conversation_stay_few_and_go_with_it(
    store: RedisStore,
) -> None:
    conversation = store.conversation("browser")
    for number in range(APPENDS_KEPT + 6):
        await conversation.append(said(f"message {number}"))
    assert len(await conversation.load()) == APPENDS_KEPT + 6
    assert await store.client.llen(conversation.appended) == APPENDS_KEPT
    assert sorted(await store.client.keys("*")) == [
        b"choices-chat:conversation-appended:browser",
        b"choices-chat:conversation:browser",
    ]
    await conversation.clear()
    assert await store.client.keys("*") == []


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:hunter2@host:6379/0", "redis://:***@host:6379/0"),
        ("redis://alice:hunter2@host/1", "redis://alice:***@host/1"),
        ("rediss://hunter2@host", "rediss://***@host"),
        ("redis://host:6379/0", "redis://host:6379/0"),
        ("unix:///run/redis.sock", "unix:///run/redis.sock"),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert without_password(url) == shown


def test_the_store_module_is_loaded_only_when_used() -> None:
    """(NiceGUI itself imports redis-py when it is installed: the store module is what is lazy.)"""
    from chat_cli import loaded_before_and_after

    assert loaded_before_and_after("chat_ui._stores._redis_store", "RedisStore") == [
        "False",
        "True",
    ]
