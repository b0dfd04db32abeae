"""`RedisStore` as a NiceGUI app uses it: a page's conversation is, by default, its browser's.

The key holds the browser's id from NiceGUI's signed session cookie, which every instance reads alike
when they share `storage_secret`. Everything else (the list per conversation, the draft replaced
from the end, the connection that fails fast) is the UI-free store's, `chat_ui._stores._redis_store`.
"""

from __future__ import annotations

from nicegui import app

from chat_ui._stores import _redis_store as redis_stores
from chat_ui._stores._redis_store import RedisConversation


class RedisStore(redis_stores.RedisStore):
    """The Redis server at `url` (`redis://[[user]:password@]host[:port][/db]`, `rediss://` for
    TLS, `unix://`); `conversation()` is one conversation in it, by default the page's browser's.
    Make one per app and share it: it holds the connection pool."""

    def conversation(self, conversation_id: str | None = None) -> RedisConversation:
        """The conversation `conversation_id`; by default the current page's browser's (call it in
        a page function, with `storage_secret` set in `ui.run`)."""
        if conversation_id is None:
            conversation_id = str(app.storage.browser["id"])
        return super().conversation(conversation_id)
