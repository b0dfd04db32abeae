"""The chat's note about where its conversation is kept: unavailable, or not saved yet.

It sits above the message box, where the person looks when a message does not go out, and has
`role="alert"` so that a screen reader says it at once. It is hidden while there is nothing to say.
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
            ui.icon("cloud_off").props["aria-hidden"] = "true"
            self.label = ui.label()
        self.set_visibility(False)

    def show(self, text: str | None) -> None:
        if text == self.text:
            return
        self.text = text
        self.label.set_text(text or "")
        self.set_visibility(text is not None)
