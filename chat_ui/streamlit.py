"""The choices in a Streamlit chat: `chat(agent)`, called once per run of the script, draws the whole
chat for any `chat_ui` agent; `send`, `messages` and `reply` are its pieces, for a
`st.chat_message` loop of your own.

    pip install 'agent-choices[streamlit]'

The conversation is kept as `chat_ui` messages in `st.session_state` (one per browser tab). Each run
draws it again: a pending block's options are native buttons (`st.button`, named by their labels,
in order); a click sends the option's value as the person's message before the next run draws it.
An answered block says what was chosen (`✓ Tonight's dinner`) and an outdated one "Answered by
typing", with no button left. The agent's turn streams into its message (its questions without
buttons until it is done), then the script runs again to draw the finished conversation. Agent text
is escaped for Streamlit's markdown (math, shortcodes and images shown as written; Streamlit shows HTML
as text);
questions, labels and the person's own words are shown exactly as written (shortcodes such as
`:smile:` too).

Importing this module loads Streamlit, and neither NiceGUI nor Gradio.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

import streamlit as st

from chat_ui._agents import Agent
from chat_ui._conversation import Message
from chat_ui._markdown_text import markdown_literal, plain_markdown
from chat_ui._shown import Block, Markdown, Part, Text, content_parts, offered, shown_history
from chat_ui._turn import Turn, waits_for_reply

__all__ = ["ChatRow", "chat", "history", "messages", "reply", "send"]

KEY = "chat_ui"
"""Where the conversation is kept in `st.session_state`, and the start of its widgets' keys."""
NOTICE_AVATAR = ":material/error:"


def chat(agent: Agent, *, key: str = KEY) -> None:
    """Draw the whole chat with `agent`: the message box, the conversation, and the agent's turn
    when it is next (the greeting, to begin with). Call it once per run of the script."""
    text = st.chat_input("Message", key=f"{key}-message")
    if text:
        send(text, key=key)
    for message in messages(key=key):
        with st.chat_message(message.role, avatar=message.avatar):
            message.draw()
    reply(agent, key=key)


def history(*, key: str = KEY) -> list[Message]:
    """This session's conversation, as `chat_ui` messages (made empty on first use)."""
    kept: list[Message] = st.session_state.setdefault(key, [])
    return kept


def send(text: str, *, key: str = KEY) -> None:
    """Take `text` (what the person typed) as their message; blank text is no message."""
    if text.strip():
        history(key=key).append({"role": "user", "content": text.strip()})


@dataclass(frozen=True)
class ChatRow:
    """One message to draw: `with st.chat_message(row.role, avatar=row.avatar): row.draw()`."""

    role: str
    avatar: str | None
    parts: list[Part]
    index: int
    """Its place in the conversation, which names its buttons' keys."""
    key: str

    def draw(self) -> None:
        """Draw the message's parts in the current container."""
        _draw_parts(self.parts, f"{self.key}-{self.index}", self.key)


def messages(*, key: str = KEY) -> list[ChatRow]:
    """The conversation's messages as drawn, oldest first."""
    return [
        ChatRow(
            "user" if shown.role == "user" else "assistant",
            NOTICE_AVATAR if shown.role == "notice" else None,
            shown.parts,
            index,
            key,
        )
        for index, shown in shown_history(history(key=key))
    ]


def reply(agent: Agent, *, key: str = KEY) -> None:
    """When the agent's turn is next, stream its reply into a new assistant message, keep what it
    ended as, and run the script again (which draws it finished, with its buttons)."""
    conversation = history(key=key)
    if not waits_for_reply(conversation):
        return
    with st.chat_message("assistant"):
        turn = Turn(agent, conversation)
        asyncio.run(_stream(turn, st.empty()))
    conversation.extend(turn.added)
    st.rerun()


async def _stream(turn: Turn, placeholder: st.delta_generator.DeltaGenerator) -> None:
    async for draft in turn.stream():
        asked = draft.asked.prompt if draft.asked else None
        parts = content_parts(draft.text(), asked, None, streaming=True, preparing=draft.preparing)
        with placeholder.container():
            _draw_parts(parts, "streaming", None)


def _draw_parts(parts: Sequence[Part], name: str, key: str | None) -> None:
    """Draw `parts`; buttons are named from `name` and send to the conversation at `key`."""
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
    pending block still offers it (not after a first click already answered it)."""
    if offered(history(key=key), value):
        history(key=key).append({"role": "user", "content": value})
