"""Questions in Redis (`RedisStore`), against a real redis-server of the tests' own: two registries
on one Redis stand for two `serve --http --redis` instances. A question asked on one is found,
shown, answered and fetched on the other; an ending made on one reaches a call waiting on the other
(pub/sub); a question ends once and is fetched once whatever the race; its keys are namespaced and
expire; a store away for a while loses nothing."""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from mcp import Client
from mcp_servers import environment
from provide_choice_harness import COMMAND
from redis_server import NEEDS_REDIS_EXTRA, RedisServer, own_redis_server
from remote_instances import QUESTION

from present_choices._translation import ENGLISH

pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)

import redis.asyncio as redis

from present_choices._addresses import without_password
from provide_choice import (
    Answered,
    BatchAnswered,
    Cancelled,
    InteractionSettings,
    TimedOut,
    create_server,
    parse_request,
)
from provide_choice._contract._batch import parse_batch
from provide_choice._history._inbox._shared_state import SharedInboxState
from provide_choice._question import (
    AgentClient,
    Interaction,
    PendingQuestion,
    QuestionRegistry,
    StoreUnavailable,
)
from provide_choice._question._redis_store import RedisStore, check_store
from provide_choice.transports import Caller, TransportKind, TransportSetup, register_transport

PREFIX = "test-prefix:"
RETENTION = 60.0
REQUEST = parse_request({key: value for key, value in QUESTION.items() if key != "transport"})


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with own_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
async def raw(redis_server: RedisServer) -> AsyncIterator[redis.Redis]:
    """A plain client, to look at the keys as Redis holds them."""
    client = redis.Redis.from_url(redis_server.url, decode_responses=True)
    await client.flushdb()
    yield client
    await client.aclose()


@pytest.fixture
async def instances(
    redis_server: RedisServer, raw: redis.Redis
) -> AsyncIterator[tuple[QuestionRegistry, QuestionRegistry]]:
    """Two instances' registries on one Redis."""
    stores = [RedisStore(redis_server.url, PREFIX, retention_seconds=RETENTION) for _ in "ab"]
    registries = [QuestionRegistry(store=store, retention_seconds=RETENTION) for store in stores]
    yield registries[0], registries[1]
    for store in stores:
        await store.aclose()


async def asked(registry: QuestionRegistry, request: object = REQUEST) -> PendingQuestion:
    interaction = Interaction.start(request, InteractionSettings())  # type: ignore[arg-type]
    question = registry.create(interaction, "web")
    await question.stored()
    return question


async def test_a_question_asked_on_one_instance_is_found_whole_on_another(
    instances: tuple[QuestionRegistry, QuestionRegistry], raw: redis.Redis
) -> None:
    one, other = instances
    question = await asked(one)
    question.show_at(f"https://choices.example.com/choice/{question.id}")
    await question.stored()
    found = await other.fetch(question.id)
    assert found is not None
    assert found is not question
    assert found.interaction.asked == REQUEST
    assert found.transport == "web"
    assert found.url == f"https://choices.example.com/choice/{question.id}"
    assert abs(found.seconds_left() - question.seconds_left()) < 1
    assert await other.fetch(question.id) is found  # one live copy per instance
    assert await other.fetch("0" * 48) is None
    assert await other.fetch("not an id") is None
    assert set(await raw.keys("*")) == {f"{PREFIX}question:{question.id}", f"{PREFIX}questions"}


async def test_an_ending_on_one_instance_ends_the_wait_on_the_other_at_once(
    instances: tuple[QuestionRegistry, QuestionRegistry],
) -> None:
    one, other = instances
    question = await asked(one)
    waiting = asyncio.ensure_future(question.wait())
    found = await other.fetch(question.id)
    assert found is not None
    started = time.monotonic()
    assert await found.settle(Answered(selected_ids=["web"]))
    assert await asyncio.wait_for(waiting, 2) == Answered(selected_ids=["web"])
    assert time.monotonic() - started < 2
    assert question.status == "finished"


async def test_two_answers_racing_through_two_instances_end_it_once(
    instances: tuple[QuestionRegistry, QuestionRegistry],
) -> None:
    one, other = instances
    for _ in range(10):
        question = await asked(one)
        copy = await other.fetch(question.id)
        assert copy is not None
        won = await asyncio.gather(
            question.settle(Answered(selected_ids=["api"])),
            copy.settle(Answered(selected_ids=["web"])),
        )
        assert sorted(won) == [False, True]
        assert question.outcome == copy.outcome
        assert question.outcome == Answered(selected_ids=["api" if won[0] else "web"])


async def test_a_session_is_fetched_once_whatever_instance_asks(
    instances: tuple[QuestionRegistry, QuestionRegistry],
    raw: redis.Redis,
    redis_server: RedisServer,
) -> None:
    one, other = instances
    question = await asked(one)
    copy = await other.fetch(question.id)
    assert copy is not None
    assert await copy.settle(Cancelled())
    await asyncio.wait_for(question.wait(), 2)
    fetched = await asyncio.gather(one.consume(question), other.consume(copy))
    assert sorted(fetched) == [False, True]
    assert not await one.consume(question)
    assert not await other.consume(copy)
    third = RedisStore(redis_server.url, PREFIX)
    try:
        elsewhere = QuestionRegistry(store=third)
        shown = await elsewhere.fetch(question.id)
        assert shown is not None  # its pages still show how it ended, until it expires
        assert shown.outcome == Cancelled()
        assert not await elsewhere.consume(shown)
    finally:
        await third.aclose()


async def test_keys_are_namespaced_and_expire_after_the_deadline_and_the_grace(
    instances: tuple[QuestionRegistry, QuestionRegistry], raw: redis.Redis
) -> None:
    one, _other = instances
    question = await asked(one)
    key = f"{PREFIX}question:{question.id}"
    assert 120 + RETENTION - 5 < await raw.ttl(key) <= 120 + RETENTION  # its timeout_seconds
    assert 0 < await raw.ttl(f"{PREFIX}questions") <= 120 + RETENTION + 1
    question.extend_deadline(600)  # the person set a longer timeout while looking at it
    await question.stored()
    assert 600 + RETENTION - 5 < await raw.ttl(key) <= 600 + RETENTION
    assert await question.settle(TimedOut(action="return_defaults"))
    assert RETENTION - 5 < await raw.ttl(key) <= RETENTION  # ended: only the poll grace is left
    (kept,) = await raw.zrange(f"{PREFIX}questions", 0, -1, withscores=True)
    assert kept[0] == question.id
    assert RETENTION - 5 < kept[1] - time.time() <= RETENTION


async def test_a_terminal_claims_a_question_once_on_every_instance(
    instances: tuple[QuestionRegistry, QuestionRegistry],
) -> None:
    one, other = instances
    question = await asked(one)
    copy = await other.fetch(question.id)
    assert copy is not None
    claims = await asyncio.gather(question.attach(), copy.attach())
    assert sorted(claims) == [False, True]


async def test_drafts_kept_answers_and_settings_cross_instances(
    instances: tuple[QuestionRegistry, QuestionRegistry],
) -> None:
    batch = parse_batch(
        {
            "title": "Setup",
            "questions": [
                {"id": "db", "prompt": "Storage?", "selection_mode": "single", **OPTIONS},
                {"id": "ci", "prompt": "CI?", "selection_mode": "single", **OPTIONS},
            ],
        }
    )
    one, other = instances
    question = await asked(one, batch)
    copy = await other.fetch(question.id)
    assert copy is not None
    heard: list[PendingQuestion] = []
    question.on_change(heard.append)
    copy.remember({"draft": {"answers": {}}, "hidden_ids": [], "touched": ["db"]})
    copy.keep("db", Answered(selected_ids=["web"]))
    await copy.apply_settings({"timeout_action": "return_nothing"})
    await copy.stored()
    # Each change arrives as it lands: the settings may come a read after the kept answer.
    await until(
        lambda: (
            question.kept == {"db": Answered(selected_ids=["web"])}
            and question.settings.timeout_action == "return_nothing"
        )
    )
    assert question.view["touched"] == ["db"]
    assert heard, "a page of it hears of the change"
    assert (await one.person_settings()).timeout_action == "return_nothing"
    assert await question.settle(Cancelled())
    assert question.outcome == Cancelled(
        kept={"db": Answered(selected_ids=["web"])}, rest="return_nothing"
    )
    assert not isinstance(question.outcome, BatchAnswered)


class ShownRecorder:
    """The recorder of the instance that asked: which of its questions were shown (its alerts go
    from then)."""

    def __init__(self) -> None:
        self.shown_ids: list[str] = []

    def asked(self, question: PendingQuestion) -> None:
        pass

    def changed(self, question: PendingQuestion) -> None:
        pass

    def shown(self, question: PendingQuestion) -> None:
        self.shown_ids.append(question.id)

    def ended(self, question: PendingQuestion) -> None:
        pass


async def test_a_question_touched_or_shown_on_another_instance_is_so_where_it_was_asked(
    instances: tuple[QuestionRegistry, QuestionRegistry], redis_server: RedisServer
) -> None:
    _one, other = instances
    recorder = ShownRecorder()
    store = RedisStore(redis_server.url, PREFIX, retention_seconds=RETENTION)
    try:
        asking = QuestionRegistry(store=store, recorder=recorder, retention_seconds=RETENTION)
        question = await asked(asking)
        copy = await other.fetch(question.id)
        assert copy is not None
        copy.touch()  # a key pressed in the terminal that B's hand-off route serves
        await copy.stored()
        await until(lambda: question.touched)  # so no alert goes from A
        assert recorder.shown_ids == []
        assert await copy.attach()  # that terminal claimed it: it is in front of the person
        await copy.stored()
        await until(lambda: recorder.shown_ids == [question.id])
        question.mark_shown()
        assert recorder.shown_ids == [question.id]  # once
    finally:
        await store.aclose()


OPTIONS = {
    "options": [{"id": "api", "label": "API", "recommended": True}, {"id": "web", "label": "Web"}]
}


async def until(condition: object, seconds: float = 2.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "not within 2 s"
        await asyncio.sleep(0.01)


async def test_a_question_outlives_the_instance_that_asked_it(
    redis_server: RedisServer, raw: redis.Redis
) -> None:
    asking = RedisStore(redis_server.url, PREFIX)
    question = await asked(QuestionRegistry(store=asking))
    await asking.aclose()  # it is gone, its question never ended
    answering = RedisStore(redis_server.url, PREFIX)
    try:
        other = QuestionRegistry(store=answering)
        found = await other.fetch(question.id)
        assert found is not None
        assert await found.settle(Answered(selected_ids=["api"]))
        assert found.outcome == Answered(selected_ids=["api"])
        assert await other.consume(found)
    finally:
        await answering.aclose()


async def test_a_store_away_for_a_while_loses_nothing_and_the_server_says_so_once_each_way(
    instances: tuple[QuestionRegistry, QuestionRegistry],
    redis_server: RedisServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    one, other = instances
    question = await asked(one)
    copy = await other.fetch(question.id)
    assert copy is not None
    waiting = asyncio.ensure_future(question.wait())
    redis_server.stop()
    try:
        with pytest.raises(StoreUnavailable) as away:
            await copy.settle(Answered(selected_ids=["web"]))
        assert str(away.value).startswith(
            f"the question store, Redis at {redis_server.url}, is unreachable ("
        )
        assert copy.status == "pending"
        assert copy.store_problem == str(away.value)
        copy.keep("x", None)  # said while away: written once it is back
        assert copy.finish(Answered(selected_ids=["web"]))  # an answer given in a terminal
    finally:
        redis_server.start()
    assert await asyncio.wait_for(waiting, 10) == Answered(selected_ids=["web"])
    await until(lambda: copy.store_problem is None and question.store_problem is None, 5)
    said = capsys.readouterr().err.splitlines()
    away_lines = [line for line in said if "is unreachable" in line]
    assert away_lines, said
    assert all(line.startswith("provide-choice: warning: ") for line in away_lines)
    assert len(away_lines) <= len(instances), "once for each store while it is away"
    back = f"provide-choice: the question store, Redis at {redis_server.url}, answers again"
    assert said.count(back) == len(away_lines)


class Unseen:
    """Shows a question nowhere: only another instance could answer it."""

    kind = TransportKind("unseen", "Nowhere", preference="Nowhere")
    cancelled_with_the_call = True
    bounded_wait = True
    shown: ClassVar[list[str]] = []

    @classmethod
    def build(cls, setup: TransportSetup) -> Unseen:
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        question.show_at(f"https://choices.example.com/choice/{question.id}")
        self.shown.append(question.id)


async def test_a_call_waiting_when_the_store_goes_away_returns_pending_at_once(
    redis_server: RedisServer, raw: redis.Redis
) -> None:
    # No answer can reach the call while Redis is away: it says so now, not at --max-wait.
    unregister = register_transport(Unseen)
    store = RedisStore(redis_server.url, PREFIX)
    registry = QuestionRegistry(store=store)
    try:
        server = create_server(setup=TransportSetup(registry), max_wait_seconds=300)
        async with Client(server) as client:
            asking = asyncio.ensure_future(
                client.call_tool("provide_choice", QUESTION | {"transport": "unseen"})
            )
            await until(lambda: Unseen.shown, 10)
            redis_server.stop()
            try:
                result = await asyncio.wait_for(asking, 30)
            finally:
                redis_server.start()
    finally:
        unregister()
        await store.aclose()
    assert result.structured_content is not None
    selection = result.structured_content["selection"]
    assert result.structured_content["action_status"] == "pending"
    assert selection["session_id"] is not None
    problem = f"the question store, Redis at {redis_server.url}, is unreachable"
    assert problem in selection["summary"]


async def test_a_server_starts_only_on_a_redis_that_answers(redis_server: RedisServer) -> None:
    key = await check_store(redis_server.url, PREFIX)
    assert len(key) == 32
    assert await check_store(redis_server.url, PREFIX) == key  # the same for every instance
    with pytest.raises(ValueError, match="Redis URL must specify one of the following schemes"):
        await check_store("http://127.0.0.1:1/0", PREFIX)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:hunter2@127.0.0.1:6379/0", "redis://:***@127.0.0.1:6379/0"),
        ("rediss://reader:hunter2@redis.example.com", "rediss://reader:***@redis.example.com"),
        ("redis://hunter2@127.0.0.1", "redis://***@127.0.0.1"),
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("unix:///run/redis.sock", "unix:///run/redis.sock"),
    ],
)
def test_a_redis_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert without_password(url) == shown


async def test_the_inbox_lists_what_waits_on_every_instance_and_what_ended(
    instances: tuple[QuestionRegistry, QuestionRegistry], redis_server: RedisServer
) -> None:
    one, other = instances
    first = await asked(one)
    first.show_at(f"https://choices.example.com/choice/{first.id}")
    interaction = Interaction.start(REQUEST, InteractionSettings(), client=AgentClient("ci", "1"))
    in_terminal = other.create(interaction, "terminal")
    answered = await asked(other)
    assert await answered.settle(Answered(selected_ids=["web"]))
    await first.stored()
    await in_terminal.stored()
    inbox = SharedInboxState(RedisStore(redis_server.url, PREFIX))
    try:
        state = await inbox.read(ENGLISH)
    finally:
        await inbox.close()
    assert state["problem"] is None
    newest, oldest = state["waiting"]
    assert (newest["title"], newest["client"], newest["url"], newest["where"]) == (
        QUESTION["title"],
        "ci 1",
        None,
        "Shown in its server's terminal",
    )
    assert (oldest["url"], oldest["where"]) == (first.url, None)
    assert 115 < oldest["seconds_left"] <= 120
    (ended,) = state["recent"]
    assert (ended["action_status"], ended["summary"]) == ("selected", "Selected: Web.")


@pytest.mark.parametrize(
    ("command", "listening"),
    [("serve", True), ("inbox", False)],
    ids=["serve, a port that takes the connection and never answers", "inbox, a closed port"],
)
def test_a_redis_that_does_not_answer_at_start_is_one_line_and_exit_2(
    command: str, listening: bool, home: Path
) -> None:
    with socket.socket() as nobody:  # bound: no one else takes the port meanwhile
        nobody.bind(("127.0.0.1", 0))
        if listening:
            nobody.listen(1)  # the kernel accepts the connection; nothing ever answers on it
        url = f"redis://:hunter2@127.0.0.1:{nobody.getsockname()[1]}/0"
        started = time.monotonic()
        result = subprocess.run(
            [COMMAND, command, "--http" if command == "serve" else "--port", "0", "--redis", url],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=environment(home),
            timeout=60,
        )
    assert time.monotonic() - started < 10
    assert result.returncode == 2
    shown = url.replace("hunter2", "***")
    assert re.fullmatch(
        rf"provide-choice {command}: cannot start: the question store, Redis at "
        rf"{re.escape(shown)}, (is unreachable \(.+\)|does not answer)\n",
        result.stderr,
    ), result.stderr
    assert "hunter2" not in result.stderr + result.stdout
