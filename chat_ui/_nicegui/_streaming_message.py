"""The reply under way in the chat's log: the `ReplyView` NiceGUI's chat gives its session.

Its element is made once the reply says something, and updated in place as it grows (its body
re-renders only the segment that grows); the session decides when (throttled) and with what. Once
the reply ends, it is shown from its message as kept, exactly as a reload will show it.
"""

from __future__ import annotations

from collections.abc import Callable

from nicegui import ui

from chat_ui._model import BlockUpdate, Message, ReplyDraft, asked_prompt
from chat_ui._nicegui._choice_group import SelectHandler
from chat_ui._nicegui._message import AssistantMessage

FinishedHandler = Callable[[AssistantMessage, Message, BlockUpdate], None]
"""Told of a reply's element once it shows its message as kept, with what its blocks show."""


class StreamingMessage:
    """A reply streaming into `log`; `on_choice` takes a click on its options, `on_finished` its
    element once the reply has ended."""

    def __init__(
        self, log: ui.element, *, on_choice: SelectHandler, on_finished: FinishedHandler
    ) -> None:
        self.log = log
        self.element: AssistantMessage | None = None
        """The reply's element in the log once it has said something."""
        self._on_choice = on_choice
        self._on_finished = on_finished

    def show(self, draft: ReplyDraft) -> None:
        if self.element is None:
            with self.log:
                self.element = AssistantMessage(on_choice=self._on_choice, streaming=True)
        self.element.body.set_content(
            draft.text(),
            asked=draft.asked.prompt if draft.asked else None,
            preparing=draft.preparing,
            streaming=True,
        )

    def finish(self, message: Message, blocks: BlockUpdate) -> None:
        if self.element is None:
            with self.log:
                self.element = AssistantMessage(on_choice=self._on_choice)
        self.element.body.set_content(
            message["content"], asked=asked_prompt(message), streaming=False
        )
        self._on_finished(self.element, message, blocks)

    def discard(self) -> None:
        if self.element is not None:
            self.element.delete()
            self.element = None
