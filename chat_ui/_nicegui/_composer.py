"""Where the person types: a text box named "Message" and a "Send" button.

Enter sends and Shift+Enter starts a new line, as in most chat apps. While the agent replies the
button is disabled and Enter does nothing, but the text box stays editable so the next message can be
written meanwhile. The text leaves the box only once the chat has taken the message (`forget`): a
message that could not be saved yet is still there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from nicegui import ui

from chat_ui._nicegui._language import chat_words

# Enter sends; Shift+Enter and Enter while an input method is composing a character do not.
_ENTER_SENDS = """(event) => {
  if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  emit();
}"""


class Composer(ui.element):
    """Calls `on_send` with the stripped text; empty text is not sent."""

    def __init__(self, on_send: Callable[[str], Awaitable[None]]) -> None:
        super().__init__("div")
        self._on_send = on_send
        self.classes("chat-composer")
        words = chat_words()
        with self:
            self.input = (
                ui.textarea(placeholder=words.gettext("Type a message"))
                .props("autogrow rows=1 borderless dense")
                .classes("chat-input")
            )
            self.input.props["aria-label"] = words.gettext("Message")
            self.input.on("keydown", self.submit, js_handler=_ENTER_SENDS)
            self.button = (
                ui.button(words.gettext("Send"), icon="send", on_click=self.submit, color=None)
                .props("rounded unelevated no-caps")
                .classes("chat-send")
            )

    async def submit(self) -> None:
        text = (self.input.value or "").strip()
        if not text or not self.button.enabled:
            return
        await self._on_send(text)

    def forget(self, text: str) -> None:
        """Empty the box once `text` is sent, unless the person has changed it since."""
        if (self.input.value or "").strip() == text:
            self.input.value = ""

    def set_busy(self, busy: bool) -> None:
        self.button.set_enabled(not busy and self.input.enabled)

    def set_available(self, available: bool) -> None:
        """Whether the chat takes messages at all (not while its conversation cannot be read)."""
        self.input.set_enabled(available)
        self.button.set_enabled(available)
