"""A `ChatView` on a page of NiceGUI's `User` test fixture, for the tests of the agents behind it."""

from __future__ import annotations

from nicegui import ui
from nicegui.testing import User

from chat_ui import Agent, ChatView, Message


async def open_chat(user: User, agent: Agent) -> tuple[ChatView, list[Message]]:
    """A chat page with `agent` whose greeting (which starts with "Hello!") is shown: the view, and
    the history it keeps."""
    views: list[ChatView] = []
    history: list[Message] = []

    @ui.page("/")
    def page() -> None:
        views.append(ChatView(agent, history))

    await user.open("/")
    await user.should_see("Hello!")
    return views[0], history
