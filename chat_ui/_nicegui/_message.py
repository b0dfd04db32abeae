"""The chat's message rows, one element per role.

Each row starts with a visually hidden "You:" or "Assistant:" so that a screen reader, which reads new
entries of the log as they arrive, says who is speaking; a notice from the app itself says so too.
"""

from __future__ import annotations

from nicegui import ui

from chat_ui._model._conversation import Interrupt
from chat_ui._model._interrupts import InterruptState
from chat_ui._nicegui._choice_group import SelectHandler
from chat_ui._nicegui._choices_markdown import ChoicesMarkdown
from chat_ui._nicegui._interrupt_group import AnswerHandler, InterruptGroup
from chat_ui._nicegui._language import chat_words
from present_choices import ChoicePrompt
from present_choices._translation import N_


class UserMessage(ui.element):
    """What the person sent, typed or picked: plain text in a bubble."""

    def __init__(self, content: str) -> None:
        super().__init__("div")
        self.classes("chat-message chat-message--user")
        with self:
            ui.label(chat_words().gettext("You:")).classes("sr-only")
            ui.label(content).classes("chat-bubble")


CUT_OFF_NOTE = N_(
    "Cut off: the chat app stopped while writing this reply. Send your message again to ask again."
)


class AssistantMessage(ui.element):
    """The agent's reply; `body` renders its markdown and choices blocks (`asked`: the one it asked
    with a tool call). A reply that never finished (`cut_off`) says so after its text; one that
    ended with interrupts shows a group for each under it (see `show_interrupts`)."""

    def __init__(
        self,
        content: str = "",
        *,
        asked: ChoicePrompt | None = None,
        on_choice: SelectHandler,
        answer: str | None = None,
        streaming: bool = False,
        cut_off: bool = False,
    ) -> None:
        super().__init__("div")
        self.classes("chat-message chat-message--assistant")
        self.interrupts: list[InterruptGroup] = []
        with self:
            ui.icon("auto_awesome").classes("chat-avatar").props["aria-hidden"] = "true"
            ui.label(chat_words().gettext("Assistant:")).classes("sr-only")
            # The reply's text, and what goes under it, in one column.
            with ui.element("div").classes("chat-reply") as self.column:
                self.body = ChoicesMarkdown(
                    content, asked=asked, on_choice=on_choice, answer=answer, streaming=streaming
                )
                if cut_off:
                    ui.label(chat_words().gettext(CUT_OFF_NOTE)).classes("chat-cut-off")

    def show_interrupts(
        self,
        interrupts: list[Interrupt],
        states: dict[str, InterruptState],
        on_answer: AnswerHandler,
    ) -> None:
        """Show a group for each of `interrupts`, in `states` (kept until `set_interrupt_states`)."""
        with self.column:
            self.interrupts = [
                InterruptGroup(interrupt, on_answer=on_answer, state=states[interrupt["id"]])
                for interrupt in interrupts
            ]

    def set_interrupt_states(self, states: dict[str, InterruptState]) -> None:
        for group in self.interrupts:
            group.set_state(states[group.interrupt["id"]])


class ErrorMessage(ui.element):
    """A notice from the app (the agent failed, its choices could not be shown), in the conversation
    where the reply would have been; `role="alert"` has screen readers say it at once."""

    def __init__(self, content: str) -> None:
        super().__init__("div")
        self.classes("chat-message chat-message--error")
        self.props["role"] = "alert"
        with self:
            ui.icon("error_outline").props["aria-hidden"] = "true"
            ui.label(chat_words().gettext("Notice from the chat app:")).classes("sr-only")
            ui.label(content)
