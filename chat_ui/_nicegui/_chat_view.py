"""`ChatView`: a whole conversation on a NiceGUI page: the message log, the "thinking" indicator, the
note about the store, and the composer.

The view lays the conversation out and reacts; everything else is its `ChatSession`'s
(`chat_ui._session`): the history, driving the agent, the reply as it streams, saving through the
store, and the state of every block. The session tells the view what to draw (the view is its
`ChatFrontend`), and the view hands the person's actions to the session: a message sent from the
composer, a click on an option, an answer to an interrupt. Messages are added to the log one at a
time: earlier messages are never drawn again, and the only earlier elements touched are the blocks
the session says a new message decided.
"""

from __future__ import annotations

from collections.abc import MutableSequence

from nicegui import ui

from chat_ui._agents import Agent
from chat_ui._model import BlockUpdate, Message, asked_prompt
from chat_ui._nicegui._composer import Composer
from chat_ui._nicegui._language import chat_translation, speak_in_client
from chat_ui._nicegui._message import AssistantMessage, ErrorMessage, UserMessage
from chat_ui._nicegui._store_notice import StoreNotice
from chat_ui._nicegui._streaming_message import StreamingMessage
from chat_ui._nicegui._styles import ensure_styles
from chat_ui._session import ChatSession, ReplyView
from chat_ui._stores import ConversationStore
from present_choices._translation import Translation


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
        translation = chat_translation(language)
        # Made first: a conversation given twice is refused before anything is drawn.
        session = ChatSession(agent, self, history=history, store=store, translation=translation)
        super().__init__("div")
        ensure_styles()
        self.classes("chat-view")
        speak_in_client(translation)
        self.session = session
        self._replies: dict[int, AssistantMessage] = {}  # by their place in the history
        with self:
            self.log = ChatLog().classes("chat-log")
            self.thinking = ThinkingIndicator(translation)
            self.thinking.set_visibility(False)
            self.notice = StoreNotice()
            with ui.element("div").classes("chat-composer-bar"):
                self.composer = Composer(self.send)
                hint = translation.gettext("Enter to send · Shift+Enter for a new line")
                ui.label(hint).classes("chat-hint")
        session.start()

    @property
    def agent(self) -> Agent:
        return self.session.agent

    @property
    def translation(self) -> Translation:
        return self.session.translation

    @property
    def history(self) -> MutableSequence[Message]:
        """The conversation, as the session keeps it."""
        return self.session.history

    @property
    def busy(self) -> bool:
        """A reply is under way: the chat takes no message."""
        return self.session.busy

    @property
    def loaded(self) -> bool:
        """The conversation has been read from its store: the chat takes messages."""
        return self.session.loaded

    async def send(self, text: str) -> None:
        """Send `text` as the user's message and wait for the agent's reply."""
        await self.session.send(text)

    def stop(self) -> None:
        """Stop the reply under way, if any: nothing of it shows; a store keeps it as cut off."""
        self.session.stop()

    async def start_over(self) -> None:
        """Stop the reply under way and forget the conversation, returning once it is forgotten
        (by the store too, which may wait for the store to be back)."""
        await self.session.start_over()

    def _handle_delete(self) -> None:
        self.session.close()
        super()._handle_delete()

    # What the session has the view draw (`ChatFrontend`).

    def show_message(self, message: Message, blocks: BlockUpdate | None) -> None:
        with self.log:
            if message["role"] == "user":
                UserMessage(message["content"])
            elif message["role"] == "error":
                ErrorMessage(message["content"])
            elif blocks is not None:
                reply = AssistantMessage(
                    message["content"],
                    asked=asked_prompt(message),
                    on_choice=self.session.pick,
                    answer=blocks.answer,
                    cut_off=message.get("cut_off", False),
                )
                self._follow(reply, message, blocks)

    def show_blocks(self, blocks: BlockUpdate) -> None:
        reply = self._replies[blocks.index]
        reply.body.set_answer(blocks.answer)
        if blocks.interrupts is not None:
            reply.set_interrupt_states(blocks.interrupts)

    def start_reply(self) -> ReplyView:
        return StreamingMessage(self.log, on_choice=self.session.pick, on_finished=self._follow)

    def clear_messages(self) -> None:
        self.log.clear()
        self._replies.clear()

    def set_busy(self, busy: bool) -> None:
        self.thinking.set_visibility(busy)
        self.composer.set_busy(busy)

    def set_available(self, available: bool) -> None:
        self.composer.set_available(available)

    def show_notice(self, text: str | None, *, waiting: bool = False) -> None:
        self.notice.show(text, waiting=waiting)

    def forget_typed(self, text: str) -> None:
        self.composer.forget(text)

    def _follow(self, reply: AssistantMessage, message: Message, blocks: BlockUpdate) -> None:
        """Keep `reply`, the element of `message`, for the blocks a later message decides, and
        show the interrupts it ended with, if any."""
        self._replies[blocks.index] = reply
        if blocks.interrupts is not None:
            reply.show_interrupts(message["interrupts"], blocks.interrupts, self.session.answer)
