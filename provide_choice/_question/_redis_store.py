"""Questions in Redis, shared by every `provide-choice serve --http --redis URL` instance on it (the
`redis` extra; imported only when `--redis` is given).

Keys, each starting with the prefix (`--redis-prefix`, default `provide-choice:`):

- `question:<id>`: a hash, one field per part of the question (`Snapshot.fields`), expiring at the
  question's deadline plus the poll grace (and the grace after its end), so Redis does not grow;
- `questions`: a sorted set of every question's id, scored by when its keys expire (what
  `inbox --redis` lists, waiting and ended; entries past their expiry are dropped as new ones
  come);
- `settings`: a hash of the settings the person changed through any instance, one field each;
- `request-state-key`: the key that seals a 2026-07-28 call's state, so that a retried call is
  read by whichever instance the proxy sends it to;
- `events`: the channel every instance listens on (`_redis_events`: what they say there, and
  whether Redis answers). An ending carries its outcome, so the call that waits on another
  instance ends within one message (pub/sub, not polling).

A question ends once: `finish` reads it and writes its ending in one transaction (WATCH/MULTI),
so two answers racing through two instances give one ending, and the other finds it ended. A session
is fetched once: `consume` marks it fetched, and only one mark finds it unmarked (it stays until it
expires, so its pages on every instance still show how it ended).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Mapping
from typing import Any, cast

from redis.exceptions import WatchError

from present_choices._addresses import without_password
from present_choices._redis import RETRIES, connect
from provide_choice._contract._meaning import ENDING_ADAPTER
from provide_choice._contract._outcomes import Ending
from provide_choice._contract._settings import InteractionSettings
from provide_choice._question._redis_events import Reach, event_message, hear
from provide_choice._question._registry import RETENTION_SECONDS
from provide_choice._question._store import (
    Decide,
    EventKind,
    Events,
    Snapshot,
    StoreUnavailable,
)

CHECK_SECONDS = 6.0
"""How long a server starting with `--redis` waits for Redis before it gives up (exit status 2):
with its own start and stop, within the 10 s promised."""

_UPDATE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
if ARGV[2] ~= '' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], 'XX', ARGV[2] / 1000, ARGV[3])
end
redis.call('PUBLISH', KEYS[3], ARGV[1])
return 1
"""
"""Change fields of a question that still exists (a hash written after its expiry would be a
fragment), move its expiry with its deadline, and tell every instance."""
_END = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local outcome = redis.call('HGET', KEYS[1], 'outcome')
if outcome and outcome ~= '' then return {0, outcome} end
redis.call('HSET', KEYS[1], 'status', 'finished', 'outcome', ARGV[1], 'ended', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3], 'LT')
redis.call('ZADD', KEYS[2], 'XX', 'LT', ARGV[3] / 1000, ARGV[4])
redis.call('PUBLISH', KEYS[3], ARGV[5])
return {1, ARGV[1]}
"""
"""End a question with an outcome that depends on nothing stored, unless it has ended: one round
trip, where a batch's ending (its kept answers read first) takes a transaction."""
_CONSUME = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('HSETNX', KEYS[1], 'consumed', '1')
"""
"""Mark a question fetched, once: it stays (its pages still show how it ended) until it expires."""
_ATTACH = """
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'attached')
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1
"""


class RedisStore:
    """The questions of every instance on the Redis server at `url` (`QuestionStore`)."""

    def __init__(
        self,
        url: str,
        prefix: str,
        *,
        retention_seconds: float = RETENTION_SECONDS,
        retries: int = RETRIES,
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.retention = retention_seconds
        self.client = connect(url, retries=retries, decode_responses=True)
        self.instance = secrets.token_hex(8)
        """This process, in the events it sends: it hears its own, and skips them."""
        self._reach = Reach(url)
        self._listening: asyncio.Task[None] | None = None
        self._update = self.client.register_script(_UPDATE)
        self._attach = self.client.register_script(_ATTACH)
        self._consume = self.client.register_script(_CONSUME)
        self._end = self.client.register_script(_END)

    def key(self, name: str) -> str:
        return self.prefix + name

    async def request_state_key(self) -> bytes:
        """The key that seals retried calls' states, the same for every instance (the first one
        makes it). Raises `StoreUnavailable` unless Redis answers within `CHECK_SECONDS`."""
        name = self.key("request-state-key")
        try:
            async with self._reach.commands():
                made = self.client.set(name, secrets.token_hex(32), nx=True)
                await asyncio.wait_for(made, CHECK_SECONDS)
                return bytes.fromhex(cast(str, await self.client.get(name)))
        except TimeoutError:
            raise StoreUnavailable(
                f"the question store, Redis at {without_password(self.url)}, does not answer"
            ) from None

    @property
    def problem(self) -> str | None:
        return self._reach.problem

    def listen(self, events: Events) -> None:
        self._reach.events = events
        hearing = hear(self.url, self.key("events"), self.instance, self._reach)
        self._listening = asyncio.get_running_loop().create_task(hearing)

    async def add(self, snapshot: Snapshot) -> None:
        key, questions = self._question(snapshot.id), self.key("questions")
        expires = snapshot.deadline + self.retention
        async with self._reach.commands(), self.client.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=_fields(snapshot.fields()))
            pipe.pexpireat(key, int(expires * 1000))
            pipe.zremrangebyscore(questions, "-inf", time.time())
            pipe.zadd(questions, {snapshot.id: expires})
            pipe.expireat(questions, int(expires) + 1, nx=True)
            pipe.expireat(questions, int(expires) + 1, gt=True)
            await pipe.execute()

    async def load(self, question_id: str) -> Snapshot | None:
        async with self._reach.commands():
            fields = cast(dict[str, str], await self.client.hgetall(self._question(question_id)))
        return _read(question_id, fields)

    async def update(self, question_id: str, changes: Mapping[str, str]) -> None:
        expires = ""
        if "deadline" in changes:
            expires = str(int((float(changes["deadline"]) + self.retention) * 1000))
        flat = [item for pair in changes.items() for item in pair]
        keys = [self._question(question_id), self.key("questions"), self.key("events")]
        message = self._event("changed", question_id)
        async with self._reach.commands():
            await self._update(keys=keys, args=[message, expires, question_id, *flat])

    async def finish(self, question_id: str, decide: Decide | Ending) -> tuple[bool, Ending] | None:
        if not callable(decide):
            return await self._finish_with(question_id, decide)
        key = self._question(question_id)
        async with self._reach.commands(), self.client.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    stored = _read(question_id, cast(dict[str, str], await pipe.hgetall(key)))
                    if stored is None:
                        return None
                    if stored.outcome is not None:
                        return False, stored.outcome
                    outcome = decide(stored)
                    encoded = ENDING_ADAPTER.dump_json(outcome).decode()
                    now = time.time()
                    ended = {"status": "finished", "outcome": encoded, "ended": repr(now)}
                    expires = now + self.retention
                    pipe.multi()  # type: ignore[no-untyped-call]
                    pipe.hset(key, mapping=_fields(ended))
                    pipe.pexpireat(key, int(expires * 1000), lt=True)
                    pipe.zadd(self.key("questions"), {question_id: expires}, xx=True, lt=True)
                    pipe.publish(self.key("events"), self._event("finished", question_id, encoded))
                    await pipe.execute()
                    return True, outcome
                except WatchError:  # it changed meanwhile (another instance ended it?): again
                    continue

    async def _finish_with(self, question_id: str, outcome: Ending) -> tuple[bool, Ending] | None:
        encoded, now = ENDING_ADAPTER.dump_json(outcome).decode(), time.time()
        expires = str(int((now + self.retention) * 1000))
        keys = [self._question(question_id), self.key("questions"), self.key("events")]
        message = self._event("finished", question_id, encoded)
        async with self._reach.commands():
            result = await self._end(
                keys=keys, args=[encoded, repr(now), expires, question_id, message]
            )
        if result is None:
            return None
        won, ending = result
        return bool(won), ENDING_ADAPTER.validate_json(ending)

    async def attach(self, question_id: str) -> bool:
        keys = [self._question(question_id), self.key("events")]
        async with self._reach.commands():
            attached = await self._attach(keys=keys, args=[self._event("changed", question_id)])
        return bool(attached)

    async def consume(self, question_id: str) -> bool:
        async with self._reach.commands():
            return bool(await self._consume(keys=[self._question(question_id)]))

    async def questions(self) -> list[Snapshot]:
        async with self._reach.commands():
            kept = self.key("questions")
            ids = cast(list[str], await self.client.zrangebyscore(kept, time.time(), "+inf"))
            async with self.client.pipeline(transaction=False) as pipe:
                for question_id in ids:
                    pipe.hgetall(self._question(question_id))
                found = cast(list[dict[str, str]], await pipe.execute())
        snapshots = [
            _read(question_id, fields) for question_id, fields in zip(ids, found, strict=True)
        ]
        return sorted(
            (stored for stored in snapshots if stored is not None),
            key=lambda stored: stored.started,
            reverse=True,
        )

    async def settings(self, base: InteractionSettings) -> InteractionSettings:
        async with self._reach.commands():
            saved = cast(dict[str, str], await self.client.hgetall(self.key("settings")))
        changes = {name: json.loads(value) for name, value in saved.items()}
        try:
            return InteractionSettings.model_validate(base.model_dump() | changes)
        except ValueError:  # written by a version with other settings: this machine's stand
            return base

    async def save_settings(self, changes: Mapping[str, Any]) -> None:
        encoded = {name: json.dumps(value) for name, value in changes.items()}
        if encoded:
            async with self._reach.commands():
                await self.client.hset(self.key("settings"), mapping=_fields(encoded))

    async def aclose(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        await self.client.aclose()

    def _question(self, question_id: str) -> str:
        return self.key(f"question:{question_id}")

    def _event(self, kind: EventKind, question_id: str, outcome: str | None = None) -> str:
        return event_message(kind, question_id, self.instance, outcome)


def _read(question_id: str, fields: Mapping[str, str]) -> Snapshot | None:
    """The question these fields hold; None for none (gone), and for fields that are no question
    of this version (a key under the prefix written by something else): nothing to show."""
    if not fields:
        return None
    try:
        return Snapshot.from_fields(question_id, fields)
    except (ValueError, KeyError, TypeError):
        return None


def _fields(fields: Mapping[str, str]) -> Mapping[Any, Any]:
    """Text fields as redis-py's typing takes a hash's mapping."""
    return fields


async def check_store(url: str, prefix: str) -> bytes:
    """Whether a server can start on the Redis at `url`: the key that seals retried calls' states
    when it can; `StoreUnavailable` (within `CHECK_SECONDS` and a little), or `ValueError` for a
    URL that is not a Redis one, when it cannot. Its connection is closed again: the server's own
    runs in another event loop. A command is tried once: a server that takes the connection and
    never answers is said to be so after one `present_choices._redis.TIMEOUT`, not two."""
    store = RedisStore(url, prefix, retries=0)
    try:
        return await store.request_state_key()
    finally:
        await store.client.aclose()
