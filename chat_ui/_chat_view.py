"""The whole conversation: message log, "thinking" indicator and composer, driving an agent.

The history list is the only state. Messages are appended to it and to the log one at a time: earlier
messages are never rebuilt, and the only earlier elements touched are the choices blocks that the new
user message decides (those of the assistant messages since the previous user message). What those
blocks show is derived from the history, in one place (`_show_answers`), after the message is in it: a
click on an option only sends its value, like typing it. A streaming reply is rendered at most every
`RENDER_INTERVAL` seconds, however many chunks it comes in, and only the segment of it that grows is
updated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableSequence

from nicegui import ui

from chat_ui._agents import Agent
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._composer import Composer
from chat_ui._history import Message, answers, asked_prompt, conversation
from chat_ui._message import AssistantMessage, ErrorMessage, UserMessage
from chat_ui._migration import upgrade_history
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

    Pass a list from `app.storage.user` to keep the conversation across page reloads; messages kept
    in an earlier version's shape are brought up to date in it (see `upgrade_history`). An empty
    history starts with the agent's greeting.
    """

    def __init__(self, agent: Agent, history: MutableSequence[Message] | None = None) -> None:
        super().__init__("div")
        ensure_styles()
        self.classes("chat-view")
        self.agent = agent
        self.history: MutableSequence[Message] = [] if history is None else history
        upgrade_history(self.history)
        self.busy = False
        # Assistant messages that no user message has followed yet, by their place in the history:
        # the next user message decides their blocks.
        self._awaiting_answer: list[tuple[int, ChoicesMarkdown]] = []
        self._reply_task: asyncio.Task[None] | None = None
        self._draft = ReplyDraft()
        self._streaming: AssistantMessage | None = None
        with self:
            self.log = ChatLog().classes("chat-log")
            with self.log:
                for index, answer in enumerate(answers(self.history)):
                    self._show(self.history[index], index, answer)
            self.thinking = ThinkingIndicator()
            self.thinking.set_visibility(False)
            with ui.element("div").classes("chat-composer-bar"):
                self.composer = Composer(self.send)
                ui.label("Enter to send · Shift+Enter for a new line").classes("chat-hint")
        if not conversation(self.history):
            self._start_reply()

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        reply = self._say(text)
        if reply is not None:
            # Waiting (rather than awaiting the task) leaves this caller alone when `stop` cancels it.
            await asyncio.wait([reply])

    def stop(self) -> None:
        """Stop the reply under way, if any: nothing of it is shown or kept."""
        if self._reply_task is not None:
            self._reply_task.cancel()

    def _say(self, text: str) -> asyncio.Task[None] | None:
        """Append `text` as the user's message and start the reply, both before returning: a second
        click handled right after a first one finds its block answered, or the chat busy."""
        text = text.strip()
        if not text or self.busy:
            return None
        self._append({"role": "user", "content": text})
        return self._start_reply()

    def _pick(self, value: str) -> None:
        """A click on an option: its value is sent as the user's message, as if typed."""
        self._say(value)

    def _append(self, message: Message) -> None:
        self.history.append(message)
        with self.log:
            self._show(message, len(self.history) - 1, None)
        if message["role"] == "user":
            self._show_answers()

    def _show(self, message: Message, index: int, answer: str | None) -> None:
        """Show `message`, the history's `index`-th, and the state `answer` gives its blocks."""
        if message["role"] == "user":
            UserMessage(message["content"])
        elif message["role"] == "error":
            ErrorMessage(message["content"])
        else:
            reply = AssistantMessage(
                message["content"], asked=asked_prompt(message), on_choice=self._pick, answer=answer
            )
            if answer is None:
                self._awaiting_answer.append((index, reply.body))

    def _show_answers(self) -> None:
        """Show the blocks still awaiting an answer as the history now decides them.

        The messages since the earliest of them are enough to know what answers each one, so a long
        conversation costs no more than a short one.
        """
        if not self._awaiting_answer:
            return
        start = self._awaiting_answer[0][0]
        following = answers(self.history[start:])
        for index, body in self._awaiting_answer:
            body.set_answer(following[index - start])
        self._awaiting_answer = [
            (index, body) for index, body in self._awaiting_answer if body.answer is None
        ]

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
        draft = self._draft
        if draft.says_nothing():
            return
        if self._streaming is None:
            with self.log:
                self._streaming = AssistantMessage(on_choice=self._pick, streaming=True)
        self._streaming.body.set_content(
            draft.text(),
            asked=draft.asked.prompt if draft.asked else None,
            preparing=draft.preparing,
            streaming=True,
        )

    def _finish_reply(self) -> None:
        message = self._draft.message()
        if message is None:
            self._discard_streaming()
        else:
            self.history.append(message)
            if self._streaming is None:
                with self.log:
                    self._streaming = AssistantMessage(on_choice=self._pick)
            # Shown from the message as kept, exactly as a reload will show it.
            self._streaming.body.set_content(
                message["content"], asked=asked_prompt(message), streaming=False
            )
            self._awaiting_answer.append((len(self.history) - 1, self._streaming.body))
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
