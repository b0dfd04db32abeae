"""Where conversations are kept, with no UI framework: `_store` (the `ConversationStore` protocol
every store follows, and `ListStore`, a conversation in a list), `_redis_store` (`RedisStore`, one
Redis list per conversation, shared by several instances; the `redis` extra, so it is not imported
here), `_save_queue` (`SaveQueue`: the writes of one conversation, in order, tried again until the
store takes them). A store names a conversation by the id it is given; "this browser's" is a front
end's idea (`chat_ui._nicegui`: `LocalStore`, and its `RedisStore` that defaults to the browser)."""

from chat_ui._stores._save_queue import SaveQueue
from chat_ui._stores._store import ConversationStore, ListStore

__all__ = ["ConversationStore", "ListStore", "SaveQueue"]
