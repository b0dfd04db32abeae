"""`LocalStore`: a conversation kept in NiceGUI's per-browser storage, on this machine.

It is a `ListStore` whose list is, by default, this browser's in `app.storage.user`: NiceGUI keeps
it in a file per browser, named after the signed session cookie, so a reload or a second tab in the
same browser shows the same conversation. A list in that storage saves itself on every change.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import cast

from nicegui import app

from chat_ui._model import Message
from chat_ui._stores import ListStore

HISTORY_KEY = "chat_ui.history"
"""Where `LocalStore` keeps the browser's conversation in `app.storage.user`."""


class LocalStore(ListStore):
    """The conversation in a list: by default this browser's, in `app.storage.user` (NiceGUI keeps
    it in a file per browser on this machine), which needs a page context and `storage_secret`.

    Messages kept by an earlier version in an older shape are brought up to date when read.
    """

    def __init__(self, messages: MutableSequence[Message] | None = None) -> None:
        if messages is None:
            messages = cast(MutableSequence[Message], app.storage.user.setdefault(HISTORY_KEY, []))
        super().__init__(messages)
