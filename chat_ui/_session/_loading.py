"""Reading a conversation from its store when a chat opens: until the store answers, and until no
reply is being written into it elsewhere.

A store that cannot be read leaves the chat unavailable, saying so, never empty: an empty chat would
start a new conversation over the one kept; it is read again every `LOAD_RETRY` seconds. A reply
still streaming in another tab or instance is shown as saved so far and read again every
`WATCH_INTERVAL` seconds until it is done: meanwhile the chat takes no message (it would miss the
reply).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from chat_ui._model import Message
from chat_ui._session._notices import ELSEWHERE, UNAVAILABLE, Notices
from chat_ui._session._streaming_reply import streaming_somewhere
from chat_ui._stores import ConversationStore

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.5  # seconds between two reads of a conversation with a reply streaming elsewhere
LOAD_RETRY = 2.0  # seconds between two tries to read a conversation that could not be read


async def load_settled(
    store: ConversationStore,
    notices: Notices,
    shown: Sequence[Message],
    show: Callable[[list[Message]], None],
) -> list[Message]:
    """The conversation in `store` once no reply streams into it anywhere. While one does, `show`
    is given each read that differs from what is `shown` (not every save of the same text)."""
    messages = await _read(store, notices)
    while any(streaming_somewhere(message) for message in messages):
        if _as_shown(messages) != _as_shown(shown):
            show(messages)
        notices.say(ELSEWHERE, waiting=True)
        await asyncio.sleep(WATCH_INTERVAL)
        messages = await _read(store, notices)
    notices.say(None)
    return messages


async def _read(store: ConversationStore, notices: Notices) -> list[Message]:
    while True:
        try:
            return await store.load()
        except Exception as error:
            if notices.say(UNAVAILABLE):  # logged once, not at every try
                log.warning("the conversation could not be read: %s", error)
            await asyncio.sleep(LOAD_RETRY)


def _as_shown(messages: Sequence[Message]) -> list[dict[str, object]]:
    """`messages` as a chat shows them: without the times their drafts were saved."""
    return [
        {key: value for key, value in message.items() if key != "saved_at"} for message in messages
    ]
