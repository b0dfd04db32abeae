"""chat_ui: a NiceGUI chat that renders ```choices fences as accessible button groups.

Embed `ChoicesMarkdown` to show one assistant message with its buttons, `ChatView` for a whole
conversation with an `Agent`, or call `chat_page` in a page function for the full page. `LLMAgent`
puts a language model behind the chat, `AGUIAgent` any agent served over AG-UI; they need the `llm`
and `ag-ui` extras, so each is imported only when used (importing `chat_ui` loads neither pydantic-ai
nor the AG-UI types). A conversation is kept by a `ConversationStore`: `LocalStore` (this browser's,
on this machine) or `RedisStore` (shared by several instances; the `redis` extra, loaded when used).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chat_ui._agents import Agent, DemoAgent, ScriptAgent, ScriptError, load_script
from chat_ui._chat_page import chat_page
from chat_ui._chat_view import ChatView
from chat_ui._choice_group import ChoiceGroup
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._conversation import (
    BlockState,
    Interrupt,
    Message,
    Resume,
    ToolCall,
    answers,
    block_state,
    conversation,
)
from chat_ui._reply import (
    AgentError,
    ChoicesAsked,
    ChoicesPreparing,
    Interrupted,
    Notice,
    ReplyChunk,
    ThreadStarted,
)
from chat_ui._store import ConversationStore, LocalStore
from chat_ui._tab_alert import TabAlert
from present_choices import render_markdown  # the one renderer, shared with the web portal

if TYPE_CHECKING:
    from chat_ui._agui_agent import AGUIAgent
    from chat_ui._llm_agent import LLMAgent
    from chat_ui._redis_store import RedisStore

__all__ = [
    "AGUIAgent",
    "Agent",
    "AgentError",
    "BlockState",
    "ChatView",
    "ChoiceGroup",
    "ChoicesAsked",
    "ChoicesMarkdown",
    "ChoicesPreparing",
    "ConversationStore",
    "DemoAgent",
    "Interrupt",
    "Interrupted",
    "LLMAgent",
    "LocalStore",
    "Message",
    "Notice",
    "RedisStore",
    "ReplyChunk",
    "Resume",
    "ScriptAgent",
    "ScriptError",
    "TabAlert",
    "ThreadStarted",
    "ToolCall",
    "answers",
    "block_state",
    "chat_page",
    "conversation",
    "load_script",
    "render_markdown",
]


def __getattr__(name: str) -> Any:
    """`LLMAgent`, `AGUIAgent` and `RedisStore` on first use: they need the `llm`, `ag-ui` and
    `redis` extras, which plain chat apps do without."""
    if name == "LLMAgent":
        from chat_ui._llm_agent import LLMAgent

        return LLMAgent
    if name == "AGUIAgent":
        from chat_ui._agui_agent import AGUIAgent

        return AGUIAgent
    if name == "RedisStore":
        from chat_ui._redis_store import RedisStore

        return RedisStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
