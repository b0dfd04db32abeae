"""The chat as a whole page: a header, and a `ChatView` over a conversation store.

By default the conversation is this browser's, kept by `LocalStore` in `app.storage.user` (per
browser: a signed session cookie, data on the server), so a reload, or a second tab in the same
browser, shows the same conversation; it needs `storage_secret` in `ui.run`. `choices-chat --redis`
gives a Redis store instead, shared by every instance of the app.
"""

from __future__ import annotations

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from chat_ui._agents import Agent
from chat_ui._nicegui._chat_view import ChatView
from chat_ui._nicegui._language import chat_translation, speak_in_client, speak_in_page
from chat_ui._nicegui._local_store import LocalStore
from chat_ui._nicegui._tab_alert import TabAlert
from chat_ui._stores import ConversationStore
from present_choices._translation import N_

TITLE = N_("Choices chat")


def chat_page(
    agent: Agent,
    *,
    title: str = TITLE,
    subtitle: str = "",
    store: ConversationStore | None = None,
    language: str | None = None,
) -> ChatView:
    """Fill the current page with a chat with `agent`; call it from a `@ui.page` function.

    `store` keeps the conversation (default: `LocalStore()`, this browser's). `language` (a tag,
    `zh-CN`) is the chat's, by default the browser's; the page's `<html lang>` names it, as screen
    readers need.
    """
    translation = chat_translation(language)
    speak_in_page(translation)
    speak_in_client(translation)  # the header's elements speak it too (the tab's alert)
    title = translation.gettext(title)
    ui.page_title(title)
    with ui.element("div").classes("chat-page"):
        with ui.element("header").classes("chat-header"):
            ui.icon("forum").classes("chat-avatar").props('aria-hidden="true"')
            with ui.element("div"):
                TextElement(tag="h1", text=title)
                if subtitle:
                    ui.label(subtitle).classes("chat-subtitle")
            new_chat = ui.button(translation.gettext("New chat"), icon="add", color=None)
            new_chat.props("flat rounded no-caps").classes("chat-new")
            TabAlert()
        view = ChatView(
            agent, store=LocalStore() if store is None else store, language=translation.tag
        )

        async def start_over() -> None:
            """Forget the conversation, then reload: the reply under way is stopped first, so that
            nothing of it lands in the new conversation."""
            await view.start_over()
            ui.navigate.reload()

        new_chat.on_click(start_over)
        return view
