"""Conversations in Redis, so that several instances of the chat share them (extra `redis`).

Each conversation is one Redis list of JSON messages. A new message is one `RPUSH`, which costs the
same at 10,000 messages as at 10: the conversation is never rewritten, unlike NiceGUI's own Redis
storage, which writes a user's whole dictionary on every change. A reply that streams replaces its
own draft, found from the end of the list (`LPOS ... RANK -1`, then `LSET`), in one server-side
script: a message another tab added after it is never overwritten, and a conversation cleared
meanwhile is left alone.

Redis may make a write and go away before its answer arrives (a restart, the network); the write is
then tried again, by redis-py and then by the chat's `SaveQueue`. So an append is a script too,
given an id of that write: the ids of the conversation's latest `APPENDS_KEPT` appends are kept in a
list beside it, and an append whose id is there was made already (the message would be there twice).

Each conversation is named by whoever asks for it (`RedisStore.conversation(conversation_id)`): a
front end names it after the browser, session or thread it belongs to. NiceGUI's `RedisStore`
(`chat_ui._nicegui._redis_store`, the one `chat_ui` offers) names it, by default, after the
browser's id in NiceGUI's signed session cookie.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import cast

from chat_ui._model import Message
from present_choices._redis import TIMEOUT, connect

KEY_PREFIX = "choices-chat:conversation:"
APPENDS_KEPT = 64
"""How many of a conversation's latest appends are remembered by their write's id."""

_APPEND_ONCE = f"""
if redis.call('LPOS', KEYS[2], ARGV[2]) then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], 0, {APPENDS_KEPT - 1})
return 1
"""
"""Append ARGV[1] to the list KEYS[1] unless the write ARGV[2] is among the latest ones made (the
list KEYS[2]); 0 when it was made already."""

_REPLACE_FROM_THE_END = """
local index = redis.call('LPOS', KEYS[1], ARGV[1], 'RANK', -1)
if not index then return 0 end
redis.call('LSET', KEYS[1], index - redis.call('LLEN', KEYS[1]), ARGV[2])
return 1
"""
"""Replace the last element equal to ARGV[1] by ARGV[2], by its place counted from the end (both
found from the tail, so the cost does not grow with the conversation); 0 when there is none."""


class RedisStore:
    """The Redis server at `url` (`redis://[[user]:password@]host[:port][/db]`, `rediss://` for
    TLS, `unix://`); `conversation()` is one conversation in it. Make one per app and share it: it
    holds the connection pool."""

    def __init__(self, url: str, *, key_prefix: str = KEY_PREFIX) -> None:
        self.url = url
        self.key_prefix = key_prefix
        self.client = connect(url)
        self._replace = self.client.register_script(_REPLACE_FROM_THE_END)
        self._append = self.client.register_script(_APPEND_ONCE)

    def conversation(self, conversation_id: str) -> RedisConversation:
        """The conversation `conversation_id`: the list `<key_prefix><id>`, and the ids of its
        latest appends in `<key_prefix without its last colon>-appended:<id>`."""
        appended = f"{self.key_prefix.removesuffix(':')}-appended:{conversation_id}"
        return RedisConversation(self, self.key_prefix + conversation_id, appended)

    async def close(self) -> None:
        await self.client.aclose()


class RedisConversation:
    """One conversation in a `RedisStore`: a `ConversationStore` over the list at `key`, with the
    ids of its latest appends at `appended`."""

    def __init__(self, store: RedisStore, key: str, appended: str) -> None:
        self.store = store
        self.key = key
        self.appended = appended
        self._unanswered: tuple[str, str] | None = None
        """The message and write id of an append that failed: tried again, it keeps its id."""

    async def load(self) -> list[Message]:
        stored = await self.store.client.lrange(self.key, 0, -1)
        return [cast(Message, json.loads(item)) for item in stored]

    async def append(self, message: Message) -> None:
        encoded = _encoded(message)
        if self._unanswered is None or self._unanswered[0] != encoded:
            self._unanswered = (encoded, secrets.token_hex(16))
        await self.store._append(keys=[self.key, self.appended], args=list(self._unanswered))
        self._unanswered = None

    async def replace(self, old: Message, new: Message) -> bool:
        replaced = await self.store._replace(keys=[self.key], args=[_encoded(old), _encoded(new)])
        return bool(replaced)

    async def clear(self) -> None:
        await self.store.client.delete(self.key, self.appended)


async def check_reachable(url: str) -> None:
    """Raise unless the Redis server at `url` answers a PING within about `TIMEOUT` seconds: the
    error of the first try (connection refused, timeout, wrong password, not a Redis URL)."""
    client = connect(url, retries=0)
    try:
        await asyncio.wait_for(client.ping(), timeout=TIMEOUT + 1)
    finally:
        await client.aclose()


def _encoded(message: Message) -> str:
    """One message as stored: the same message always gives the same text, which is how a draft is
    found again to be replaced."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
