"""The whole conversation: message log, "thinking" indicator and composer, driving an agent.

The history list is the only state. Messages are appended to it and to the log one at a time: earlier
messages are never rebuilt, and the only earlier elements touched are the blocks that the new message
decides (the choices blocks a user message answers, the interrupts an answer, an error or a message
settles). What those blocks show is derived from the history, in one place (`OpenBlocks`), after the
message is in it: a click on an option only sends its value, like typing it, and an answer to an
interrupt is a message of its own; the agent goes on once no interrupt of its reply is left open. A reply under way is a `StreamingReply`,
which shows it as it grows (throttled, updating only the segment that grows) and saves it as it grows.

With a `ConversationStore`, the history is read from the store when the page opens and every change
is written to it one message at a time, in order, through a `SaveQueue`. A message the person sends
is shown (and answered) once the store has it; until then it stays in the message box and the page
says that it is not saved yet. A store that cannot be read leaves the chat unavailable, saying so,
never empty: an empty chat would start a new conversation over the one kept. A reply saved while it
streamed, and no longer streaming anywhere when the page opens, is kept as cut off.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableSequence, Sequence

from nicegui import ui

from chat_ui._agents import Agent
from chat_ui._composer import Composer
from chat_ui._conversation import (
    SILENT_REPLY,
    Message,
    Resume,
    answers,
    asked_prompt,
    conversation,
    cut_off,
)
from chat_ui._interrupts import answers_complete
from chat_ui._language import chat_translation, speak_in_client
from chat_ui._message import AssistantMessage, ErrorMessage, UserMessage
from chat_ui._migration import upgrade_history
from chat_ui._open_blocks import OpenBlocks
from chat_ui._reply import AgentError
from chat_ui._save_queue import SaveQueue
from chat_ui._store import ConversationStore
from chat_ui._store_notice import StoreNotice
from chat_ui._streaming_reply import StreamingReply, streaming_somewhere
from chat_ui._styles import ensure_styles
from present_choices._translation import N_, Translation, speaking

log = logging.getLogger(__name__)

WATCH_INTERVAL = 0.5  # seconds between two reads of a conversation with a reply streaming elsewhere
LOAD_RETRY = 2.0  # seconds between two tries to read a conversation that could not be read

UNAVAILABLE = N_(
    "This conversation is unavailable: it cannot be read from where it is kept right now. Nothing "
    "is lost; it is tried again every few seconds, and shown as soon as it can be read."
)
ELSEWHERE = N_(
    "A reply is still being written in another tab or window of this chat. It shows here once it "
    "is done; until then, this chat takes no message."
)
UNSAVED = N_(
    "Not saved yet: the conversation cannot be written to where it is kept right now. Nothing is "
    "lost: a message you send waits in the message box, and everything is saved as soon as it can be."
)


def _as_shown(messages: Sequence[Message]) -> list[dict[str, object]]:
    """`messages` as the log shows them: without the times their drafts were saved."""
    return [
        {key: value for key, value in message.items() if key != "saved_at"} for message in messages
    ]


class ChatLog(ui.element, component="chat_log.js"):
    """The message list (`role="log"`); it scrolls itself to new messages in the browser."""


class ThinkingIndicator(ui.element):
    """Shown while the agent works on a reply."""

    def __init__(self, translation: Translation) -> None:
        super().__init__("div")
        self.classes("chat-thinking")
        self.props["role"] = "status"
        with self:
            with ui.element("span").classes("chat-dots").props('aria-hidden="true"'):
                for _ in range(3):
                    ui.element("span")
            ui.label(translation.gettext("Thinking…"))


class ChatView(ui.element):
    """A chat with `agent` over a conversation kept in `history` or in `store`.

    `history`, a list (or a list from `app.storage.user`), is read at start and appended to as the
    chat goes; messages kept in an earlier version's shape are brought up to date in it (see
    `upgrade_history`). `store` (`LocalStore()`, `RedisStore(url).conversation()`) is read when the
    page opens and written one message at a time. An empty conversation starts with the agent's
    greeting. `language` (a tag: `zh-CN`) is the chat's; by default the browser's.
    """

    def __init__(
        self,
        agent: Agent,
        history: MutableSequence[Message] | None = None,
        *,
        store: ConversationStore | None = None,
        language: str | None = None,
    ) -> None:
        if history is not None and store is not None:
            raise ValueError("ChatView keeps its conversation in `history` or in `store`, not both")
        super().__init__("div")
        ensure_styles()
        self.classes("chat-view")
        self.agent = agent
        self.translation = chat_translation(language)
        speak_in_client(self.translation)
        self.history: MutableSequence[Message] = [] if history is None else history
        self.busy = False
        self.loaded = store is None
        self._open = OpenBlocks()  # the replies whose blocks a later message may still decide
        self._reply_task: asyncio.Task[None] | None = None
        self._load_task: asyncio.Task[None] | None = None
        self._saves = None if store is None else SaveQueue(store, self._show_unsaved)
        with self:
            self.log = ChatLog().classes("chat-log")
            self.thinking = ThinkingIndicator(self.translation)
            self.thinking.set_visibility(False)
            self.notice = StoreNotice()
            with ui.element("div").classes("chat-composer-bar"):
                self.composer = Composer(self.send)
                hint = self.translation.gettext("Enter to send · Shift+Enter for a new line")
                ui.label(hint).classes("chat-hint")
        if store is None:
            upgrade_history(self.history)
            self._show_history()
        else:
            self.composer.set_available(False)
            self._load_task = asyncio.create_task(self._load(store), name="chat load")

    async def _load(self, store: ConversationStore) -> None:
        """Read the conversation, trying again until the store answers (the chat says it is
        unavailable). While a reply streams elsewhere (another tab or instance), show it as saved so
        far and read it again until done; meanwhile no message is taken (it would miss the reply)."""
        messages = await self._read(store)
        while any(streaming_somewhere(message) for message in messages):
            if _as_shown(messages) != _as_shown(self.history):  # not at every save of the same text
                self._show_messages(messages)
            self.notice.show(self.translation.gettext(ELSEWHERE), waiting=True)
            await asyncio.sleep(WATCH_INTERVAL)
            messages = await self._read(store)
        self.notice.show(None)
        self._show_messages(messages, greet=True)
        self.loaded = True
        self.composer.set_available(True)

    async def _read(self, store: ConversationStore) -> list[Message]:
        while True:
            try:
                return await store.load()
            except Exception as error:
                unavailable = self.translation.gettext(UNAVAILABLE)
                if self.notice.text != unavailable:  # once, not at every try
                    log.warning("the conversation could not be read: %s", error)
                self.notice.show(unavailable)
                await asyncio.sleep(LOAD_RETRY)

    def _show_messages(self, messages: list[Message], *, greet: bool = False) -> None:
        """Show `messages` in place of what the log shows; with `greet`, as the conversation the
        chat goes on with: every draft left is cut off, and an empty one starts with a greeting."""
        self.history[:] = messages
        if greet:
            self._mark_cut_off()
        self.log.clear()
        self._open.clear()
        self._show_history(greet=greet)

    def _mark_cut_off(self) -> None:
        """Keep every reply saved while it streamed, and no longer streaming anywhere, as cut off."""
        assert self._saves is not None
        for index, message in enumerate(self.history):
            if "streaming" in message and not streaming_somewhere(message):
                self.history[index] = cut_off(message)
                self._saves.replace(message, self.history[index])

    def _show_history(self, *, greet: bool = True) -> None:
        with self.log:
            for index, answer in enumerate(answers(self.history)):
                self._show(self.history[index], index, answer)
        if greet and not conversation(self.history):
            self._start_reply()

    def _handle_delete(self) -> None:
        if self._load_task is not None:
            self._load_task.cancel()
        super()._handle_delete()

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        reply = self._say(text)
        if reply is not None:
            # Waiting (rather than awaiting the task) leaves this caller alone when `stop` cancels it.
            await asyncio.wait([reply])

    def stop(self) -> None:
        """Stop the reply under way, if any: nothing of it shows; a store keeps it as cut off."""
        if self._reply_task is not None:
            self._reply_task.cancel()

    async def start_over(self) -> None:
        """Stop the reply under way and forget the conversation, returning once it is forgotten
        (by the store too, which may wait for the store to be back)."""
        self.stop()
        self.history.clear()
        if self._saves is not None:
            await self._saves.clear().wait()

    def _say(self, text: str) -> asyncio.Task[None] | None:
        """Take `text` as the user's message and start the reply."""
        text = text.strip()
        return self._take({"role": "user", "content": text}) if text else None

    def _take(self, message: Message) -> asyncio.Task[None] | None:
        """Take the person's `message` and start the reply it asks for, both before returning: a
        second click handled right after a first one finds its block answered, or the chat busy.
        With a store, the message is shown, and answered, once the store has it."""
        if self.busy or not self.loaded:
            return None
        if self._saves is None:
            self._remember(message)
            self._forget_typed(message)
            return self._start_reply() if self._goes_on(message) else None
        return self._start_reply(message)

    async def _remember_once_saved(self, message: Message) -> None:
        assert self._saves is not None
        await self._saves.append(message).wait()
        self._remember(message)
        self._forget_typed(message)

    def _goes_on(self, message: Message) -> bool:
        """Whether the agent replies to the person's `message`: to what they say, and to their
        answers to interrupts once none is left open."""
        return message["role"] == "user" or answers_complete(self.history)

    def _forget_typed(self, message: Message) -> None:
        if message["role"] == "user":
            self.composer.forget(message["content"])

    def _pick(self, value: str) -> None:
        """A click on an option: its value is sent as the user's message, as if typed."""
        self._say(value)

    def _answer(self, answer: Resume, words: str) -> None:
        """An answer to an interrupt: kept as a message of its own, shown by its group."""
        self._take({"role": "answer", "content": words, "resume": answer})

    def _remember(self, message: Message) -> None:
        """Add `message` to the history and the log (and, without a store, keep it), and show the
        blocks it decides."""
        self.history.append(message)
        with self.log:
            self._show(message, len(self.history) - 1, None)
        self._open.show(self.history)

    def _show(self, message: Message, index: int, answer: str | None) -> None:
        """Show `message`, the history's `index`-th, and the state `answer` gives its blocks (an
        answer to an interrupt shows in the interrupt's group, not on its own)."""
        if message["role"] == "user":
            UserMessage(message["content"])
        elif message["role"] == "error":
            ErrorMessage(message["content"])
        elif message["role"] == "assistant" and message != SILENT_REPLY:
            reply = AssistantMessage(
                message["content"],
                asked=asked_prompt(message),
                on_choice=self._pick,
                answer=answer,
                cut_off=message.get("cut_off", False),
            )
            self._open.add(self.history, index, reply, self._answer)

    def _start_reply(self, first: Message | None = None) -> asyncio.Task[None]:
        """Start the reply; with `first`, the user's message, once the store has it."""
        self._set_busy(True)  # at once: nothing can be sent before the reply has even started
        # A task of its own, so that `stop` can cancel it; the view holds it while it runs. It speaks
        # the chat's language: the agent's words for the person (a greeting, a failure) are in it.
        with speaking(self.translation):
            task = asyncio.create_task(self._reply(first), name="chat reply")
        task.add_done_callback(self._reply_ended)  # also when stopped before it began
        self._reply_task = task
        return task

    def _reply_ended(self, task: asyncio.Task[None]) -> None:
        if task is self._reply_task:
            self._reply_task = None
        self._set_busy(False)

    async def _reply(self, first: Message | None) -> None:
        if first is not None:
            await self._remember_once_saved(first)
            if not self._goes_on(first):
                return
        with StreamingReply(self.log, self._saves, on_choice=self._pick) as reply:
            try:
                async for chunk in self.agent.reply(conversation(self.history)):
                    reply.add(chunk)
            except Exception as error:
                reply.fail()
                notice = _failure_notice(error, self.translation)
                self._remember(notice)
                reply.save_ending([notice])
            else:
                reply.save_ending(self._finish_reply(reply))

    def _finish_reply(self, reply: StreamingReply) -> list[Message]:
        """Show the reply as finished and add it to the history: the messages it added."""
        added: list[Message] = []
        message = reply.finish()
        went_on = not reply.draft.notices and self.history and self.history[-1]["role"] == "answer"
        if message is None and went_on:
            message = SILENT_REPLY.copy()  # kept all the same: the answers were taken, not resent
        if message is not None:
            self.history.append(message)
            added.append(message)
            if reply.element is not None:
                self._open.add(self.history, len(self.history) - 1, reply.element, self._answer)
            self._open.show(self.history)
        for text in reply.draft.notices:
            notice: Message = {"role": "error", "content": text}
            self._remember(notice)
            added.append(notice)
        return added

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.thinking.set_visibility(busy)
        self.composer.set_busy(busy)

    def _show_unsaved(self, unsaved: bool) -> None:
        self.notice.show(self.translation.gettext(UNSAVED) if unsaved else None)


def _failure_notice(error: Exception, translation: Translation) -> Message:
    """The notice of a reply that failed with `error`, which is logged: with a traceback only where
    it helps (an `AgentError` already says what went wrong, in the person's words)."""
    log.warning("the agent failed to reply: %s", error, exc_info=not isinstance(error, AgentError))
    if isinstance(error, AgentError):
        return {"role": "error", "content": str(error)}
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    text = translation.gettext(
        "The agent could not reply ({detail}). Send your message again to retry.", detail=detail
    )
    return {"role": "error", "content": text}
