"""The choices in a Gradio chat: `chat_interface(agent)` is a whole chat app for any `chat_ui` agent,
and `add_chat` puts one in a `gr.Blocks` of your own (with your own `gr.Chatbot`, if you like).

    pip install 'agent-choices[gradio]'

The conversation is kept as `chat_ui` messages, in a `gr.State` (one per page; a reload starts a
new one), and the `gr.Chatbot` shows them through `to_messages`, drawn again after each change. A
pending block's options are Gradio's own: native buttons under the last message, named by their
labels; a click sends the option's value as the person's message. Gradio drops the options once the
last message has moved on, so an answered block says what was chosen (`✓ Tonight's dinner`) and an
outdated one "Answered by typing". Agent text is escaped for Gradio's markdown (raw HTML and math are
shown as written; see `chat_ui._markdown_text`), and questions, labels and the person's own words
are shown exactly as written.

Importing this module loads Gradio, and neither NiceGUI nor Streamlit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import gradio as gr

from chat_ui._agents import Agent
from chat_ui._conversation import Message
from chat_ui._markdown_text import markdown_literal, plain_markdown
from chat_ui._reply import ReplyDraft
from chat_ui._shown import Block, Markdown, Part, Shown, Text, content_parts, offered, shown_history
from chat_ui._turn import Turn

__all__ = ["add_chat", "chat_interface", "respond", "to_messages"]

TITLE = "Choices chat"
NOTICE_MARK = "⚠"

ChatUpdate = tuple[list[dict[str, Any]], list[Message], dict[str, Any]]
"""What a chat event yields: the chatbot's messages, the conversation, and the message box."""


def chat_interface(agent: Agent, *, title: str = TITLE) -> gr.Blocks:
    """A ready Gradio chat with `agent`: `chat_interface(agent).launch()`."""
    demo = gr.Blocks(title=title, fill_height=True)
    with demo:
        gr.Markdown(f"# {markdown_literal(title)}")
        add_chat(agent)
    return demo


def add_chat(
    agent: Agent, chatbot: gr.Chatbot | None = None, textbox: gr.Textbox | None = None
) -> gr.State:
    """Put a chat with `agent` in the `gr.Blocks` being built: in `chatbot` and `textbox` when
    given (made here when not), wired to greet on load, answer what is typed and take a click on
    an option. Returns the `gr.State` holding the conversation (a list of `chat_ui` messages)."""
    if chatbot is None:
        chatbot = gr.Chatbot(label="Conversation", latex_delimiters=[], scale=1, buttons=["copy"])
    if textbox is None:
        textbox = gr.Textbox(
            label="Message",
            placeholder="Type your message, or pick an option above",
            submit_btn="Send",
            autofocus=False,
        )
    history = gr.State([])
    outputs = [chatbot, history, textbox]

    async def greet() -> AsyncIterator[ChatUpdate]:
        async for update in _replying(agent, []):
            yield update

    async def send(text: str, messages: list[Message]) -> AsyncIterator[ChatUpdate]:
        async for update in respond(agent, messages, text):
            yield update

    async def pick(messages: list[Message], selected: gr.SelectData) -> AsyncIterator[ChatUpdate]:
        value = str(selected.value)
        if not offered(messages, value):  # a block already answered, a second click
            yield to_messages(messages), messages, gr.update()
            return
        async for update in respond(agent, messages, value):
            yield update

    # Each page's reply streams on its own: no queue shared by everyone (Gradio's default is one
    # event at a time for all pages).
    gr.on(None, greet, outputs=outputs, concurrency_limit=None, show_progress="hidden")
    textbox.submit(send, [textbox, history], outputs, concurrency_limit=None)
    chatbot.option_select(pick, [history], outputs, concurrency_limit=None)
    return history


async def respond(agent: Agent, history: Sequence[Message], text: str) -> AsyncIterator[ChatUpdate]:
    """Take `text` as the person's message and stream `agent`'s reply: yields the chatbot's
    messages, the conversation and an update of the message box (empty and closed while the reply
    streams), as often as the reply changes. Blank text changes nothing."""
    if not text.strip():
        yield to_messages(history), list(history), gr.update()
        return
    said: list[Message] = [*history, {"role": "user", "content": text.strip()}]
    async for update in _replying(agent, said):
        yield update


async def _replying(agent: Agent, history: list[Message]) -> AsyncIterator[ChatUpdate]:
    closed = gr.update(value="", interactive=False)
    yield to_messages(history), history, closed
    turn = Turn(agent, history)
    async for draft in turn.stream():
        yield to_messages(history, draft=draft), history, closed
    history = [*history, *turn.added]
    yield to_messages(history), history, gr.update(interactive=True)


def to_messages(
    history: Sequence[Message], *, draft: ReplyDraft | None = None
) -> list[dict[str, Any]]:
    """`history` as `gr.Chatbot` messages (dicts with `role`, `content` and, on the last message
    while its block waits, `options`); with `draft`, a reply still streaming after it."""
    shown = [message for _, message in shown_history(history)]
    messages: list[dict[str, Any]] = [
        {"role": _role(message), "content": _content(message)} for message in shown
    ]
    if draft is not None:
        asked = draft.asked.prompt if draft.asked else None
        parts = content_parts(draft.text(), asked, None, streaming=True, preparing=draft.preparing)
        messages.append({"role": "assistant", "content": _content(Shown("assistant", parts))})
    elif shown and shown[-1].options:
        options = [{"label": option.label, "value": option.value} for option in shown[-1].options]
        messages[-1]["options"] = options
    return messages


def _role(message: Shown) -> str:
    return "user" if message.role == "user" else "assistant"


def _content(message: Shown) -> str:
    content = "\n\n".join(filter(None, map(_part, message.parts)))
    return f"{NOTICE_MARK} {content}" if message.role == "notice" else content


def _part(part: Part) -> str:
    if isinstance(part, Markdown):
        return plain_markdown(part.text).strip("\n")
    if isinstance(part, Text):
        return f"*{markdown_literal(part.text)}*" if part.quiet else markdown_literal(part.text)
    return _block(part)


def _block(block: Block) -> str:
    lines = [f"**{markdown_literal(block.question)}**"]
    if block.context:
        lines.append(markdown_literal(block.context))
    if block.mark:
        lines.append(markdown_literal(block.mark))
    return "\n\n".join(lines)
