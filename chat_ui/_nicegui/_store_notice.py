"""The chat's note about where its conversation is kept: unavailable, or not saved yet.

It sits above the message box, where the person looks when a message does not go out, and has
`role="alert"` so that a screen reader says it at once. It is hidden while there is nothing to say.
A wait that is no failure (a reply still being written elsewhere) is said in the chat's own colours,
with `role="status"`.
"""

from __future__ import annotations

from nicegui import ui


class StoreNotice(ui.element):
    """`show(text)` says `text`; `show(None)` hides the notice."""

    def __init__(self) -> None:
        super().__init__("div")
        self.classes("chat-store-notice")
        self.props["role"] = "alert"
        self.text: str | None = None
        with self:
            self.icon = ui.icon("cloud_off")
            self.icon.props["aria-hidden"] = "true"
            self.label = ui.label()
        self.set_visibility(False)

    def show(self, text: str | None, *, waiting: bool = False) -> None:
        """Say `text` (None: hide the notice); `waiting`, for a wait that is no failure."""
        if text == self.text:
            return
        self.text = text
        self.props["role"] = "status" if waiting else "alert"
        if waiting:
            self.classes(add="chat-store-notice--waiting")
        else:
            self.classes(remove="chat-store-notice--waiting")
        self.icon.set_name("hourglass_empty" if waiting else "cloud_off")
        self.label.set_text(text or "")
        self.set_visibility(text is not None)
        self.update()
