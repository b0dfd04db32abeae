"""`ChatSession`: one conversation with an agent, driven the same way whatever front end shows it.

The history list is the only state. Messages are appended to it one at a time, each shown after
those shown, with the blocks it decides (see `ShownHistory`). A click on an option only sends its
value, like typing it (`pick`), and an answer to an interrupt is a message of its own (`answer`);
the agent goes on once no interrupt of its reply is left open. A reply under way is a
`StreamingReply`, which has the front end show it as it grows (throttled) and saves it as it grows.

With a `ConversationStore`, the history is read from the store when the session starts (see
`load_settled`) and every change is written to it one message at a time, in order, through a
`SaveQueue`. A message the person sends is shown (and answered) once the store has it; until then
the front end keeps it in its message box, and the chat says that it is not saved yet. A reply saved
while it streamed, and no longer streaming anywhere when the conversation is read, is kept as cut
off.
"""

from __future__ import annotations

import asyncio
from collections.abc import MutableSequence

from chat_ui._agents import Agent
from chat_ui._model import (
    SILENT_REPLY,
    Message,
    Resume,
    answers_complete,
    conversation,
    cut_off,
    upgrade_history,
)
from chat_ui._session._frontend import ChatFrontend
from chat_ui._session._loading import load_settled
from chat_ui._session._notices import Notices, failure_notice
from chat_ui._session._shown_history import ShownHistory
from chat_ui._session._streaming_reply import StreamingReply, streaming_somewhere
from chat_ui._stores import ConversationStore, SaveQueue
from present_choices._translation import Translation, speaking


class ChatSession:
    """A conversation with `agent`, kept in `history` or in `store`, shown by `frontend`.

    `history`, a list (or any mutable sequence), is read at start and appended to as the chat goes;
    messages kept in an earlier version's shape are brought up to date in it (see
    `upgrade_history`). `store` is read at start and written one message at a time. An empty
    conversation starts with the agent's greeting. The chat speaks `translation`: its notices, and
    the agent's words for the person (a greeting, a failure). Call `start` once the front end can
    show messages, and `close` once it is gone.
    """

    def __init__(
        self,
        agent: Agent,
        frontend: ChatFrontend,
        *,
        history: MutableSequence[Message] | None = None,
        store: ConversationStore | None = None,
        translation: Translation,
    ) -> None:
        if history is not None and store is not None:
            raise ValueError("a chat keeps its conversation in `history` or in `store`, not both")
        self.agent = agent
        self.frontend = frontend
        self.translation = translation
        self.history: MutableSequence[Message] = [] if history is None else history
        self.busy = False
        """A reply is under way: the chat takes no message."""
        self.loaded = store is None
        """The conversation has been read: the chat takes messages."""
        self.notices = Notices(frontend, translation)
        self.shown = ShownHistory(self.history, frontend)
        self._store = store
        self._reply_task: asyncio.Task[None] | None = None
        self._load_task: asyncio.Task[None] | None = None
        self._saves = None if store is None else SaveQueue(store, self.notices.unsaved)

    def start(self) -> None:
        """Show the conversation: at once from `history`, or once read from the store."""
        if self._store is None:
            upgrade_history(self.history)
            self._show_history()
        else:
            self.frontend.set_available(False)
            self._load_task = asyncio.create_task(self._load(self._store), name="chat load")

    def close(self) -> None:
        """The front end is gone: stop reading the store (a reply under way still ends, saved)."""
        if self._load_task is not None:
            self._load_task.cancel()

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        reply = self.say(text)
        if reply is not None:
            # Waiting (rather than awaiting the task) leaves this caller alone when `stop` cancels it.
            await asyncio.wait([reply])

    def say(self, text: str) -> asyncio.Task[None] | None:
        """Take `text` as the user's message and start the reply (None: nothing was taken, the
        text being empty or the chat busy)."""
        text = text.strip()
        return self._take({"role": "user", "content": text}) if text else None

    def pick(self, value: str) -> None:
        """A click on an option: its value is sent as the user's message, as if typed."""
        self.say(value)

    def answer(self, answer: Resume, words: str) -> None:
        """An answer to an interrupt (`words`: what was picked, in words): kept as a message of its
        own; the agent goes on once no interrupt of the reply is left open."""
        self._take({"role": "answer", "content": words, "resume": answer})

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

    async def _load(self, store: ConversationStore) -> None:
        messages = await load_settled(store, self.notices, self.history, self._show_messages)
        self._show_messages(messages, greet=True)
        self.loaded = True
        self.frontend.set_available(True)

    def _show_messages(self, messages: list[Message], *, greet: bool = False) -> None:
        """Show `messages` in place of what is shown; with `greet`, as the conversation the chat
        goes on with: every draft left is cut off, and an empty one starts with a greeting."""
        self.shown.replace(messages)
        if greet:
            self._mark_cut_off()
        self._show_history(greet=greet)

    def _mark_cut_off(self) -> None:
        """Keep every reply saved while it streamed, and no longer streaming anywhere, as cut off."""
        assert self._saves is not None
        for index, message in enumerate(self.history):
            if "streaming" in message and not streaming_somewhere(message):
                self.history[index] = cut_off(message)
                self._saves.replace(message, self.history[index])

    def _show_history(self, *, greet: bool = True) -> None:
        self.shown.show_all()
        if greet and not conversation(self.history):
            self._start_reply()

    def _take(self, message: Message) -> asyncio.Task[None] | None:
        """Take the person's `message` and start the reply it asks for, both before returning: a
        second click handled right after a first one finds its block answered, or the chat busy.
        With a store, the message is shown, and answered, once the store has it."""
        if self.busy or not self.loaded:
            return None
        if self._saves is None:
            self.shown.append(message)
            self._forget_typed(message)
            return self._start_reply() if self._goes_on(message) else None
        return self._start_reply(message)

    async def _append_once_saved(self, message: Message) -> None:
        assert self._saves is not None
        await self._saves.append(message).wait()
        self.shown.append(message)
        self._forget_typed(message)

    def _goes_on(self, message: Message) -> bool:
        """Whether the agent replies to the person's `message`: to what they say, and to their
        answers to interrupts once none is left open."""
        return message["role"] == "user" or answers_complete(self.history)

    def _forget_typed(self, message: Message) -> None:
        if message["role"] == "user":
            self.frontend.forget_typed(message["content"])

    def _start_reply(self, first: Message | None = None) -> asyncio.Task[None]:
        """Start the reply; with `first`, the user's message, once the store has it."""
        self._set_busy(True)  # at once: nothing can be sent before the reply has even started
        # A task of its own, so that `stop` can cancel it; the session holds it while it runs. It
        # speaks the chat's language: the agent's words for the person (a greeting, a failure).
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
            await self._append_once_saved(first)
            if not self._goes_on(first):
                return
        with StreamingReply(self.frontend.start_reply(), self._saves) as reply:
            try:
                async for chunk in self.agent.reply(conversation(self.history)):
                    reply.add(chunk)
            except Exception as error:
                reply.fail()
                notice = failure_notice(error, self.translation)
                self.shown.append(notice)
                reply.save_ending([notice])
            else:
                reply.save_ending(self._finish_reply(reply))

    def _finish_reply(self, reply: StreamingReply) -> list[Message]:
        """Keep the reply that ended, and show it as finished: the messages it added."""
        added: list[Message] = []
        said = reply.end()
        went_on = not reply.draft.notices and self.history and self.history[-1]["role"] == "answer"
        message = SILENT_REPLY.copy() if said is None and went_on else said
        # A silent reply is kept all the same: the answers were taken, and are not resent.
        if message is not None:
            self.shown.append_reply(message, None if said is None else reply.view)
            added.append(message)
        for text in reply.draft.notices:
            notice: Message = {"role": "error", "content": text}
            self.shown.append(notice)
            added.append(notice)
        return added

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        self.frontend.set_busy(busy)
