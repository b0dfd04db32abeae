"""The history as a front end shows it: each message added is shown after the others, and the blocks
it decides are shown decided.

Earlier messages are never shown again: the only earlier blocks that change are the ones a new
message decides (the choices blocks a user message answers, the interrupts an answer, an error or a
message settles), as `OpenBlocks` works them out once the message is in the history, reading only
the messages since the earliest block still open.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from chat_ui._model import SILENT_REPLY, Message, OpenBlocks, answers
from chat_ui._session._frontend import ChatFrontend, ReplyView


class ShownHistory:
    """`messages`, the conversation, shown by `frontend`."""

    def __init__(self, messages: MutableSequence[Message], frontend: ChatFrontend) -> None:
        self.messages = messages
        self.frontend = frontend
        self._open = OpenBlocks()  # the replies whose blocks a later message may still decide

    def show_all(self) -> None:
        """Show every message, each block as the messages after it decide it."""
        for index, answer in enumerate(answers(self.messages)):
            self._show(self.messages[index], index, answer)

    def replace(self, messages: list[Message]) -> None:
        """Hold `messages` in place of the conversation, showing none of them yet (`show_all`)."""
        self.messages[:] = messages
        self.frontend.clear_messages()
        self._open.clear()

    def append(self, message: Message) -> None:
        """Add `message`, show it, and show the blocks it decides."""
        self.messages.append(message)
        self._show(message, len(self.messages) - 1, None)
        self._show_decided()

    def append_reply(self, message: Message, view: ReplyView | None) -> None:
        """Add the reply that ended as `message`, shown so far by `view` (None: shown nowhere, a
        silent reply), and show the blocks it decides."""
        self.messages.append(message)
        if view is not None:
            view.finish(message, self._open.add(self.messages, len(self.messages) - 1, None))
        self._show_decided()

    def _show(self, message: Message, index: int, answer: str | None) -> None:
        """Show `message`, the `index`-th, its blocks as `answer` (the first user message after it)
        and the messages after it decide them."""
        blocks = None
        if message["role"] == "assistant" and message != SILENT_REPLY:
            blocks = self._open.add(self.messages, index, answer)
        self.frontend.show_message(message, blocks)

    def _show_decided(self) -> None:
        for blocks in self._open.decide(self.messages):
            self.frontend.show_blocks(blocks)
