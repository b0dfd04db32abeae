"""`TabAlert`: the chat page carries it in its header (what it does is the browser's: see
e2e/chat/test_tab_alert.py), and it is its own element that an app embedding `ChatView` can add."""

import pytest
from nicegui import ui
from nicegui.testing import User

from chat_ui import ScriptAgent, TabAlert, chat_page

pytestmark = pytest.mark.nicegui_main_file("")


async def test_the_chat_page_counts_its_waiting_choices_in_its_tab(user: User) -> None:
    @ui.page("/")
    def page() -> None:
        chat_page(ScriptAgent(["Hello!"]))

    await user.open("/")
    await user.should_see("Hello!")
    (alert,) = user.find(TabAlert).elements
    assert alert.parent_slot is not None
    assert "chat-header" in alert.parent_slot.parent.classes
