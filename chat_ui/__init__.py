"""chat_ui: a NiceGUI chat that renders ```choices fences as accessible button groups.

Embed `ChoicesMarkdown` to show one assistant message with its buttons, `ChatView` for a whole
conversation with an `Agent`, or call `chat_page` in a page function for the full page. `LLMAgent`
puts a language model behind the chat; it needs the `llm` extra, so it is imported only when used
(importing `chat_ui` never loads pydantic-ai).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chat_ui._agents import Agent, DemoAgent, ScriptAgent, ScriptError, load_script
from chat_ui._chat_page import chat_page
from chat_ui._chat_view import ChatView
from chat_ui._choice_group import ChoiceGroup
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._history import BlockState, Message, ToolCall, answers, block_state, conversation
from chat_ui._reply import AgentError, ChoicesAsked, ChoicesPreparing, Notice, ReplyChunk
from present_choices import render_markdown  # the one renderer, shared with the web portal

if TYPE_CHECKING:
    from chat_ui._llm_agent import LLMAgent

__all__ = [
    "Agent",
    "AgentError",
    "BlockState",
    "ChatView",
    "ChoiceGroup",
    "ChoicesAsked",
    "ChoicesMarkdown",
    "ChoicesPreparing",
    "DemoAgent",
    "LLMAgent",
    "Message",
    "Notice",
    "ReplyChunk",
    "ScriptAgent",
    "ScriptError",
    "ToolCall",
    "answers",
    "block_state",
    "chat_page",
    "conversation",
    "load_script",
    "render_markdown",
]


def __getattr__(name: str) -> Any:
    """`LLMAgent` on first use: it needs the `llm` extra, which plain chat apps do without."""
    if name == "LLMAgent":
        from chat_ui._llm_agent import LLMAgent

        return LLMAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
