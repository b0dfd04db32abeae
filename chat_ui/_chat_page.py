"""The chat as a whole page: a header, and a `ChatView` whose history lives in the browser's storage.

`app.storage.user` is kept per browser (a signed session cookie, data on the server), so a reload, or
a second tab in the same browser, shows the same conversation. It needs `storage_secret` in `ui.run`.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import cast

from nicegui import app, ui
from nicegui.elements.mixins.text_element import TextElement

from chat_ui._agents import Agent
from chat_ui._chat_view import ChatView
from chat_ui._history import Message

TITLE = "Choices chat"
HISTORY_KEY = "chat_ui.history"


def chat_page(agent: Agent, *, title: str = TITLE, subtitle: str = "") -> ChatView:
    """Fill the current page with a chat with `agent`; call it from a `@ui.page` function.

    Give the page a language (`@ui.page(..., language="en-US")` or `ui.run(language=...)`): screen
    readers need it.
    """
    ui.page_title(title)
    history = cast(MutableSequence[Message], app.storage.user.setdefault(HISTORY_KEY, []))
    with ui.element("div").classes("chat-page"):
        with ui.element("header").classes("chat-header"):
            ui.icon("forum").classes("chat-avatar").props('aria-hidden="true"')
            with ui.element("div"):
                TextElement(tag="h1", text=title)
                if subtitle:
                    ui.label(subtitle).classes("chat-subtitle")
            new_chat = ui.button("New chat", icon="add", color=None)
            new_chat.props("flat rounded no-caps").classes("chat-new")
        view = ChatView(agent, history)
        new_chat.on_click(lambda: _start_over(view))
        return view


def _start_over(view: ChatView) -> None:
    """Stop the reply under way first, so that nothing of it lands in the new conversation."""
    view.stop()
    view.history.clear()
    ui.navigate.reload()
