"""The whole conversation: message log, "thinking" indicator and composer, driving an agent.

The history list is the only state. Messages are appended to it and to the log one at a time: earlier
messages are never rebuilt, and the only earlier elements touched are the choices blocks that the new
user message decides (those of the assistant messages since the previous user message).
"""

from __future__ import annotations

import logging
from collections.abc import MutableSequence

from nicegui import background_tasks, ui

from chat_ui._agents import Agent
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._composer import Composer
from chat_ui._history import Message, answers, conversation
from chat_ui._message import AssistantMessage, ErrorMessage, UserMessage
from chat_ui._styles import ensure_styles

log = logging.getLogger(__name__)


class ChatLog(ui.element, component="chat_log.js"):
    """The message list (`role="log"`); it scrolls itself to new messages in the browser."""


class ThinkingIndicator(ui.element):
    """Shown while the agent works on a reply."""

    def __init__(self) -> None:
        super().__init__("div")
        self.classes("chat-thinking")
        self.props["role"] = "status"
        with self:
            with ui.element("span").classes("chat-dots").props('aria-hidden="true"'):
                for _ in range(3):
                    ui.element("span")
            ui.label("Thinking…")


class ChatView(ui.element):
    """A chat with `agent` over `history`, which it reads at start and appends to as it goes.

    Pass a list from `app.storage.user` to keep the conversation across page reloads. An empty
    history starts with the agent's greeting.
    """

    def __init__(self, agent: Agent, history: MutableSequence[Message] | None = None) -> None:
        super().__init__("div")
        ensure_styles()
        self.classes("chat-view")
        self.agent = agent
        self.history: MutableSequence[Message] = [] if history is None else history
        self.busy = False
        # Assistant messages that no user message has followed yet: the next one decides them.
        self._awaiting_answer: list[ChoicesMarkdown] = []
        with self:
            self.log = ChatLog().classes("chat-log")
            with self.log:
                for message, answer in zip(self.history, answers(self.history), strict=True):
                    self._show(message, answer)
            self.thinking = ThinkingIndicator()
            self.thinking.set_visibility(False)
            with ui.element("div").classes("chat-composer-bar"):
                self.composer = Composer(self.send)
                ui.label("Enter to send · Shift+Enter for a new line").classes("chat-hint")
        if not conversation(self.history):
            background_tasks.create(self._reply(), name="chat greeting")

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        text = text.strip()
        if not text or self.busy:
            return
        self._append({"role": "user", "content": text})
        for body in self._awaiting_answer:
            body.set_answer(text)
        self._awaiting_answer.clear()
        await self._reply()

    def _append(self, message: Message) -> None:
        self.history.append(message)
        with self.log:
            self._show(message, None)

    def _show(self, message: Message, answer: str | None) -> None:
        if message["role"] == "user":
            UserMessage(message["content"])
        elif message["role"] == "error":
            ErrorMessage(message["content"])
        else:
            reply = AssistantMessage(message["content"], on_choice=self.send, answer=answer)
            if answer is None:
                self._awaiting_answer.append(reply.body)

    async def _reply(self) -> None:
        self._set_busy(True)
        streaming: AssistantMessage | None = None
        content = ""
        try:
            async for chunk in self.agent.reply(conversation(self.history)):
                if not chunk:
                    continue
                content += chunk
                if streaming is None:
                    with self.log:
                        streaming = AssistantMessage(content, on_choice=self.send, streaming=True)
                else:
                    streaming.body.set_content(content, streaming=True)
        except Exception as error:
            log.warning("the agent failed to reply", exc_info=True)
            if streaming is not None:
                streaming.delete()
            self._append({"role": "error", "content": _failure_notice(error)})
        else:
            if streaming is not None:
                self.history.append({"role": "assistant", "content": content})
                streaming.body.set_content(content, streaming=False)
                self._awaiting_answer.append(streaming.body)
        finally:
            self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.thinking.set_visibility(busy)
        self.composer.set_busy(busy)


def _failure_notice(error: Exception) -> str:
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return f"The agent could not reply ({detail}). Send your message again to retry."
