"""The chat's tab while a reply waits for the person's choice: the count of the choices blocks
waiting in its title ("(1) Choices chat"), and a browser notification for a reply that ends with
one while the tab is in the background, once the person allowed them ("Notify me on this device";
the browser asks for the permission only on that click).

It all happens in the browser (tab_alert.js): it reads the blocks as they are drawn (a pending
block that is not locked, so a reply still streaming does not count until it ended), so the chat
itself tells it nothing. `chat_page` puts one in its header; an app that embeds `ChatView` in a
page of its own may add one (`chat_ui.TabAlert()`) where it likes.
"""

from __future__ import annotations

from nicegui import ui

from chat_ui._nicegui._language import chat_words
from present_choices._translation import N_

NOTIFY_ME = N_("Notify me on this device")
QUESTION_WAITING = N_("Question waiting")


class TabAlert(ui.element, component="tab_alert.js"):
    """Counts the choices blocks waiting in the tab's title, offers notifications, sends them; in
    the language of the chat on its page."""

    def __init__(self) -> None:
        super().__init__()
        words = chat_words()
        self._props["label"] = words.gettext(NOTIFY_ME)
        self._props["notification"] = words.gettext(QUESTION_WAITING)
