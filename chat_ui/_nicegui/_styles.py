"""The chat's stylesheet, added once to each page that shows one of our elements.

Elements add it themselves so that an app embedding a single `ChoicesMarkdown` gets a styled block
without any set-up, and so that pages which never show our elements are left untouched.
"""

from __future__ import annotations

import weakref
from pathlib import Path

from nicegui import Client, context, ui

_STYLESHEET = Path(__file__).with_name("chat.css")
_styled_clients: weakref.WeakSet[Client] = weakref.WeakSet()


def ensure_styles() -> None:
    """Add the stylesheet to the current page unless it already has it."""
    client = context.client
    if client not in _styled_clients:
        _styled_clients.add(client)
        ui.add_css(_STYLESHEET)
