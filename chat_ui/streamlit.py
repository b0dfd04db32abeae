"""The choices in a Streamlit chat: `chat(agent)`, called once per run of the script, draws the whole
chat for any `chat_ui` agent; `send`, `messages` and `reply` are its pieces, for a
`st.chat_message` loop of your own.

    pip install 'agent-choices[streamlit]'

Each browser tab holds a `ChatSession` (in `st.session_state`), which drives the agent and decides
everything about the conversation, as in the NiceGUI chat; each run of the script draws what it
shows (`RecordedChat`). A pending block's options are native buttons (`st.button`, named by their
labels, in order); a click, like a typed message, is taken in the run it starts: the session adds
it, the agent's reply streams into its message (its questions without buttons until it is done),
and the script runs again to draw the conversation as it now stands. An answered block says what
was chosen (`✓ Tonight's dinner`), an outdated one "Answered by typing", with no button left. Agent
text is escaped for Streamlit's markdown (math, shortcodes and images shown as written; Streamlit
shows HTML as text); questions, labels and the person's own words are shown exactly as written.

Importing this module loads Streamlit, and neither NiceGUI nor Gradio.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import streamlit as st

from chat_ui._agents import Agent
from chat_ui._frameworks import (
    Block,
    Markdown,
    Part,
    RecordedChat,
    Shown,
    Text,
    markdown_literal,
    plain_markdown,
)
from chat_ui._model import Message
from chat_ui._session import ChatSession
from present_choices._translation import negotiate

__all__ = ["ChatRow", "chat", "history", "messages", "reply", "send"]

KEY = "chat_ui"
"""Where the chat is kept in `st.session_state`, and the start of its widgets' keys."""
NOTICE_AVATAR = ":material/error:"


class _ChatState:
    """One tab's conversation: the session, what it shows, and what the person did since the last
    run (taken in this run)."""

    def __init__(self, agent: Agent, language: str | None) -> None:
        words = negotiate([language] if language else [])
        self.chat = RecordedChat(words)
        self.session = ChatSession(agent, self.chat, translation=words)
        self.started = False
        self.typed: str | None = None
        self.picked: str | None = None

    @property
    def acting(self) -> bool:
        """Whether this run changes the conversation: it starts, or the person did something."""
        return not self.started or self.typed is not None or self.picked is not None


def chat(agent: Agent, *, key: str = KEY, language: str | None = None) -> None:
    """Draw the whole chat with `agent`: the message box, the conversation, and the agent's turn
    when it is next (the greeting, to begin with). Call it once per run of the script. The chat
    speaks `language` (a tag such as `zh-CN`; English by default)."""
    text = st.chat_input("Message", key=f"{key}-message")
    if text:
        send(text, key=key)
    for message in messages(key=key):
        with st.chat_message(message.role, avatar=message.avatar):
            message.draw()
    reply(agent, key=key, language=language)


def history(*, key: str = KEY) -> list[Message]:
    """This tab's conversation, as `chat_ui` messages (empty before the first `reply`)."""
    state: _ChatState | None = st.session_state.get(key)
    return [] if state is None else list(state.session.history)


def send(text: str, *, key: str = KEY) -> None:
    """Take `text`, what the person typed, as their message in this run (`reply` sends it)."""
    st.session_state[f"{key}-typed"] = text


@dataclass(frozen=True)
class ChatRow:
    """One message to draw: `with st.chat_message(row.role, avatar=row.avatar): row.draw()`."""

    role: str
    avatar: str | None
    shown: Shown
    name: str
    """The start of its buttons' keys."""
    key: str
    locked: bool
    """This run changes the conversation: its blocks offer no button until the next run."""

    def draw(self) -> None:
        """Draw the message's parts in the current container."""
        _draw_parts(self.shown.parts, self.name, None if self.locked else self.key)


def messages(*, key: str = KEY) -> list[ChatRow]:
    """The conversation's messages as drawn, oldest first."""
    state: _ChatState | None = st.session_state.get(key)
    if state is None:
        return []
    locked = state.acting or st.session_state.get(f"{key}-typed") is not None
    return [
        _row(shown, f"{key}-{number}", key, locked)
        for number, shown in enumerate(state.chat.shown())
    ]


def reply(agent: Agent, *, key: str = KEY, language: str | None = None) -> None:
    """Take what the person did in this run (a message sent, an option picked), or start the
    conversation, and stream the agent's reply into a new message; then run the script again,
    which draws the conversation as it now stands. Nothing happens in a run where nothing did."""
    state: _ChatState = st.session_state.setdefault(key, _ChatState(agent, language))
    state.typed = st.session_state.pop(f"{key}-typed", None) or state.typed
    if not state.acting:
        return
    before = len(state.chat.shown())
    asyncio.run(_drive(state, st.empty(), before, key))
    st.rerun()


async def _drive(
    state: _ChatState, live: st.delta_generator.DeltaGenerator, before: int, key: str
) -> None:
    """Hand the session what happened, then draw what it adds (the person's message, the reply as
    it streams) as it comes, until it is done."""
    if not state.started:
        state.started = True
        state.session.start()
    elif state.picked is not None:
        state.session.pick(state.picked)
    elif state.typed is not None:
        state.session.say(state.typed)
    state.typed = state.picked = None
    async for _ in state.chat.follow():
        with live.container():
            for number, shown in enumerate(state.chat.shown()[before:], start=before):
                row = _row(shown, f"{key}-{number}", key, locked=True)
                with st.chat_message(row.role, avatar=row.avatar):
                    row.draw()
            if state.chat.draft is not None:
                with st.chat_message("assistant"):
                    _draw_parts(state.chat.draft, f"{key}-draft", None)


def _row(shown: Shown, name: str, key: str, locked: bool) -> ChatRow:
    role = "user" if shown.role == "user" else "assistant"
    avatar = NOTICE_AVATAR if shown.role == "notice" else None
    return ChatRow(role, avatar, shown, name, key, locked)


def _draw_parts(parts: Sequence[Part], name: str, key: str | None) -> None:
    """Draw `parts`; buttons (only with `key`, the chat they send to) are named from `name`."""
    blocks = 0
    for part in parts:
        if isinstance(part, Markdown):
            st.markdown(plain_markdown(part.text, shortcodes=True))
        elif isinstance(part, Text):
            text = markdown_literal(part.text, shortcodes=True)
            st.caption(text) if part.quiet else st.markdown(text)
        else:
            _draw_block(part, f"{name}-{blocks}", key)
            blocks += 1


def _draw_block(block: Block, name: str, key: str | None) -> None:
    with st.container(key=None if key is None else f"{name}-block"):
        st.markdown(f"**{markdown_literal(block.question, shortcodes=True)}**")
        if block.context:
            st.markdown(markdown_literal(block.context, shortcodes=True))
        if block.mark:
            st.markdown(markdown_literal(block.mark, shortcodes=True))
        if block.options and key is not None:
            with st.container(horizontal=True):
                for number, option in enumerate(block.options):
                    st.button(
                        markdown_literal(option.label, shortcodes=True),
                        key=f"{name}-option-{number}",
                        on_click=partial(_pick, key, option.value),
                    )


def _pick(key: str, value: str) -> None:
    """A click on an option, before the run it starts: its value is the person's message, if a
    block still waiting offers it (not after a first click already answered it)."""
    state: _ChatState | None = st.session_state.get(key)
    if state is not None and state.chat.offered(value):
        state.picked = value
