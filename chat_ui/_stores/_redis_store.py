"""Conversations in Redis, so that several instances of the chat share them (extra `redis`).

Each conversation is one Redis list of JSON messages. A new message is one `RPUSH`, which costs the
same at 10,000 messages as at 10: the conversation is never rewritten, unlike NiceGUI's own Redis
storage, which writes a user's whole dictionary on every change. A reply that streams replaces its
own draft, found from the end of the list (`LPOS ... RANK -1`, then `LSET`), in one server-side
script: a message another tab added after it is never overwritten, and a conversation cleared
meanwhile is left alone.

Each conversation is named by whoever asks for it (`RedisStore.conversation(conversation_id)`): a
front end names it after the browser, session or thread it belongs to. NiceGUI's `RedisStore`
(`chat_ui._nicegui._redis_store`, the one `chat_ui` offers) names it, by default, after the
browser's id in NiceGUI's signed session cookie.
"""

from __future__ import annotations

import asyncio
import json
from typing import cast

from chat_ui._model import Message
from present_choices._redis import TIMEOUT, connect

KEY_PREFIX = "choices-chat:conversation:"

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

    def conversation(self, conversation_id: str) -> RedisConversation:
        """The conversation `conversation_id`."""
        return RedisConversation(self, self.key_prefix + conversation_id)

    async def close(self) -> None:
        await self.client.aclose()


class RedisConversation:
    """One conversation in a `RedisStore`: a `ConversationStore` over the list at `key`."""

    def __init__(self, store: RedisStore, key: str) -> None:
        self.store = store
        self.key = key

    async def load(self) -> list[Message]:
        stored = await self.store.client.lrange(self.key, 0, -1)
        return [cast(Message, json.loads(item)) for item in stored]

    async def append(self, message: Message) -> None:
        await self.store.client.rpush(self.key, _encoded(message))

    async def replace(self, old: Message, new: Message) -> bool:
        replaced = await self.store._replace(keys=[self.key], args=[_encoded(old), _encoded(new)])
        return bool(replaced)

    async def clear(self) -> None:
        await self.store.client.delete(self.key)


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
