"""The whole conversation: message log, "thinking" indicator and composer, driving an agent.

The history list is the only state. Messages are appended to it and to the log one at a time: earlier
messages are never rebuilt, and the only earlier elements touched are the choices blocks that the new
user message decides (those of the assistant messages since the previous user message). A streaming
reply is rendered at most every `RENDER_INTERVAL` seconds, however many chunks it comes in, and only
the segment of it that grows is updated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableSequence

from nicegui import ui

from chat_ui._agents import Agent
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._composer import Composer
from chat_ui._history import Message, answers, conversation
from chat_ui._message import AssistantMessage, ErrorMessage, UserMessage
from chat_ui._reply import AgentError, ReplyDraft
from chat_ui._styles import ensure_styles
from chat_ui._throttle import Throttle

log = logging.getLogger(__name__)

RENDER_INTERVAL = 0.1  # seconds: at most ten renders a second of a reply that streams


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
        self._reply_task: asyncio.Task[None] | None = None
        self._draft = ReplyDraft()
        self._streaming: AssistantMessage | None = None
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
            self._start_reply()

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        text = text.strip()
        if not text or self.busy:
            return
        self._append({"role": "user", "content": text})
        for body in self._awaiting_answer:
            body.set_answer(text)
        self._awaiting_answer.clear()
        # Waiting (rather than awaiting the task) leaves this caller alone when `stop` cancels it.
        await asyncio.wait([self._start_reply()])

    def stop(self) -> None:
        """Stop the reply under way, if any: nothing of it is shown or kept."""
        if self._reply_task is not None:
            self._reply_task.cancel()

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

    def _start_reply(self) -> asyncio.Task[None]:
        self._set_busy(True)  # at once: nothing can be sent before the reply has even started
        # A task of its own, so that `stop` can cancel it; the view holds it while it runs.
        task = asyncio.create_task(self._reply(), name="chat reply")
        task.add_done_callback(self._reply_ended)  # also when stopped before it began
        self._reply_task = task
        return task

    def _reply_ended(self, task: asyncio.Task[None]) -> None:
        if task is self._reply_task:
            self._reply_task = None
        self._set_busy(False)

    async def _reply(self) -> None:
        self._draft, self._streaming = ReplyDraft(), None
        throttle = Throttle(self._show_draft, RENDER_INTERVAL)
        try:
            async for chunk in self.agent.reply(conversation(self.history)):
                self._draft.add(chunk)
                throttle.request()
        except asyncio.CancelledError:
            self._discard_streaming()
            raise
        except Exception as error:
            # A traceback only where it helps: an `AgentError` already says what went wrong.
            log.warning(
                "the agent failed to reply: %s", error, exc_info=not isinstance(error, AgentError)
            )
            self._discard_streaming()
            self._append({"role": "error", "content": _failure_notice(error)})
        else:
            self._finish_reply()
        finally:
            throttle.cancel()

    def _show_draft(self) -> None:
        shown = self._draft.shown()
        if not shown.strip():
            return
        if self._streaming is None:
            with self.log:
                self._streaming = AssistantMessage(shown, on_choice=self.send, streaming=True)
        else:
            self._streaming.body.set_content(shown, streaming=True)

    def _finish_reply(self) -> None:
        message = self._draft.message()
        if message is None:
            self._discard_streaming()
        else:
            self.history.append(message)
            if self._streaming is None:
                with self.log:
                    self._streaming = AssistantMessage(message["content"], on_choice=self.send)
            else:
                self._streaming.body.set_content(message["content"], streaming=False)
            self._awaiting_answer.append(self._streaming.body)
            self._streaming = None
        for notice in self._draft.notices:
            self._append({"role": "error", "content": notice})

    def _discard_streaming(self) -> None:
        if self._streaming is not None:
            self._streaming.delete()
            self._streaming = None

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.thinking.set_visibility(busy)
        self.composer.set_busy(busy)


def _failure_notice(error: Exception) -> str:
    if isinstance(error, AgentError):
        return str(error)
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return f"The agent could not reply ({detail}). Send your message again to retry."
