"""The choices in a Gradio chat: `chat_interface(agent)` is a whole chat app for any `chat_ui` agent,
and `add_chat` puts one in a `gr.Blocks` of your own (in your own `gr.Chatbot`, if you like).

    pip install 'agent-choices[gradio]'

Each page holds a `ChatSession` (in a `gr.State`; a reload starts a new conversation), which drives
the agent and decides everything about the conversation, as in the NiceGUI chat; the `gr.Chatbot`
draws what it shows (`RecordedChat`), drawn again after each change. A pending block's options are
Gradio's own: native buttons under the last message, named by their labels; a click sends the
option's value as the person's message. Gradio drops the options once the last message has moved
on, so an answered block says what was chosen (`✓ Tonight's dinner`) and an outdated one "Answered
by typing". Agent text is escaped for Gradio's markdown (raw HTML and math are shown as written),
and questions, labels and the person's own words are shown exactly as written.

Importing this module loads Gradio, and neither NiceGUI nor Streamlit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import gradio as gr

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
    shown_message,
)
from chat_ui._model import Message, answers
from chat_ui._session import ChatSession
from present_choices._translation import negotiate

__all__ = ["ChatPage", "add_chat", "chat_interface", "to_messages"]

TITLE = "Choices chat"
NOTICE_MARK = "⚠"

ChatUpdate = tuple[list[dict[str, Any]], "ChatPage | None", dict[str, Any]]
"""What a chat event yields: the chatbot's messages, the page's chat, and the message box."""


class ChatPage:
    """One page's conversation with `agent`: the session, and what it shows. The chat speaks
    `language` (a tag such as `zh-CN`; English by default)."""

    def __init__(self, agent: Agent, language: str | None = None) -> None:
        words = negotiate([language] if language else [])
        self.chat = RecordedChat(words)
        self.session = ChatSession(agent, self.chat, translation=words)

    def messages(self) -> list[dict[str, Any]]:
        """The chat as `gr.Chatbot` messages, the reply under way last."""
        messages = _messages(self.chat.shown())
        if self.chat.draft is not None:
            draft = Shown("assistant", self.chat.draft)
            messages.append({"role": "assistant", "content": _content(draft)})
        return messages


def chat_interface(agent: Agent, *, title: str = TITLE, language: str | None = None) -> gr.Blocks:
    """A ready Gradio chat with `agent`: `chat_interface(agent).launch()`."""
    demo = gr.Blocks(title=title, fill_height=True)
    with demo:
        gr.Markdown(f"# {markdown_literal(title)}")
        add_chat(agent, language=language)
    return demo


def add_chat(
    agent: Agent,
    chatbot: gr.Chatbot | None = None,
    textbox: gr.Textbox | None = None,
    *,
    language: str | None = None,
) -> gr.State:
    """Put a chat with `agent` in the `gr.Blocks` being built: in `chatbot` and `textbox` when
    given (made here when not), wired to greet when the page loads, answer what is typed and take a
    click on an option. Returns the `gr.State` holding the page's `ChatPage`."""
    if chatbot is None:
        chatbot = gr.Chatbot(label="Conversation", latex_delimiters=[], scale=1, buttons=["copy"])
    if textbox is None:
        textbox = gr.Textbox(
            label="Message",
            placeholder="Type your message, or pick an option above",
            submit_btn="Send",
        )
    page = gr.State(None)
    outputs = [chatbot, page, textbox]

    async def greet() -> AsyncIterator[ChatUpdate]:
        opened = ChatPage(agent, language)
        opened.session.start()
        async for update in _following(opened):
            yield update

    async def send(text: str, opened: ChatPage | None) -> AsyncIterator[ChatUpdate]:
        if opened is not None:
            opened.session.say(text)
            async for update in _following(opened):
                yield update

    async def pick(opened: ChatPage | None, selected: gr.SelectData) -> AsyncIterator[ChatUpdate]:
        if opened is not None:
            if opened.chat.offered(str(selected.value)):  # not an answered block, a second click
                opened.session.pick(str(selected.value))
            async for update in _following(opened):
                yield update

    # Each page's reply streams on its own: no queue shared by every page (Gradio's default is one
    # event at a time for all of them).
    gr.on(None, greet, outputs=outputs, concurrency_limit=None, show_progress="hidden")
    textbox.submit(send, [textbox, page], outputs, concurrency_limit=None)
    chatbot.option_select(pick, [page], outputs, concurrency_limit=None)
    return page


async def _following(page: ChatPage) -> AsyncIterator[ChatUpdate]:
    """The chat after each change while a reply is under way (the message box emptied and closed
    meanwhile), and once it is done."""
    async for _ in page.chat.follow():
        if page.chat.busy:
            yield page.messages(), page, gr.update(value="", interactive=False)
        else:
            yield page.messages(), page, gr.update(interactive=True)


def to_messages(history: Sequence[Message], *, language: str | None = None) -> list[dict[str, Any]]:
    """A conversation (`chat_ui` messages) as `gr.Chatbot` messages: dicts with `role`, `content`
    and, on the last message while its block waits, `options`."""
    words = negotiate([language] if language else [])
    drawn = (
        shown_message(message, answer, words)
        for message, answer in zip(history, answers(history), strict=True)
    )
    return _messages([message for message in drawn if message is not None])


def _messages(shown: list[Shown]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [
        {"role": "user" if message.role == "user" else "assistant", "content": _content(message)}
        for message in shown
    ]
    if shown and shown[-1].options:
        messages[-1]["options"] = [
            {"label": option.label, "value": option.value} for option in shown[-1].options
        ]
    return messages


def _content(message: Shown) -> str:
    content = "\n\n".join(filter(None, map(_part, message.parts)))
    return f"{NOTICE_MARK} {content}" if message.role == "notice" else content


def _part(part: Part) -> str:
    if isinstance(part, Markdown):
        return plain_markdown(part.text).strip("\n")
    if isinstance(part, Text):
        text = markdown_literal(part.text.strip())
        return f"*{text}*" if part.quiet and "\n" not in text else text
    return _block(part)


def _block(block: Block) -> str:
    lines = [f"**{markdown_literal(block.question)}**"]
    if block.context:
        lines.append(markdown_literal(block.context))
    if block.mark:
        lines.append(markdown_literal(block.mark))
    return "\n\n".join(lines)
