"""chat_ui: a chat that renders ```choices fences as accessible button groups; NiceGUI's, and a core
any front end can drive.

Embed `ChoicesMarkdown` to show one assistant message with its buttons, `ChatView` for a whole
conversation with an `Agent`, or call `chat_page` in a page function for the full page. `LLMAgent`
puts a language model behind the chat, `AGUIAgent` any agent served over AG-UI (the `llm` and
`ag-ui` extras). A conversation is kept by a `ConversationStore`: `LocalStore` (this browser's, on
this machine) or `RedisStore` (shared by several instances; the `redis` extra).

The same chat in Gradio and Streamlit is `chat_ui.gradio` and `chat_ui.streamlit` (the `gradio` and
`streamlit` extras), each loading its own framework only.

Every name is loaded on first use: importing `chat_ui` loads none of NiceGUI, pydantic-ai, the
AG-UI types or Redis, so a program that only wants the rules (`block_state`, `Message`, ...) or
another front end does without them. The package stands in floors, each importing only those below:
`__main__` (`choices-chat`) > `_nicegui` (and `_command_line`) > `_session` (driving a conversation)
> `_stores` | `_agents` > `_model` (the conversation and its rules); `make lint` checks them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names

if TYPE_CHECKING:
    from chat_ui._agents import Agent, DemoAgent, ScriptAgent, ScriptError, load_script
    from chat_ui._agents.agui import AGUIAgent
    from chat_ui._agents.llm import LLMAgent
    from chat_ui._model import (
        AgentError,
        BlockState,
        ChoicesAsked,
        ChoicesPreparing,
        Interrupt,
        Interrupted,
        Message,
        Notice,
        ReplyChunk,
        Resume,
        ThreadStarted,
        ToolCall,
        answers,
        block_state,
        conversation,
    )
    from chat_ui._nicegui._chat_page import chat_page
    from chat_ui._nicegui._chat_view import ChatView
    from chat_ui._nicegui._choice_group import ChoiceGroup
    from chat_ui._nicegui._choices_markdown import ChoicesMarkdown
    from chat_ui._nicegui._local_store import LocalStore
    from chat_ui._nicegui._redis_store import RedisStore
    from chat_ui._nicegui._tab_alert import TabAlert
    from chat_ui._stores import ConversationStore
    from present_choices import render_markdown  # the one renderer, shared with the web portal

_MODULES = {
    "AGUIAgent": "chat_ui._agents.agui",
    "Agent": "chat_ui._agents",
    "AgentError": "chat_ui._model",
    "BlockState": "chat_ui._model",
    "ChatView": "chat_ui._nicegui._chat_view",
    "ChoiceGroup": "chat_ui._nicegui._choice_group",
    "ChoicesAsked": "chat_ui._model",
    "ChoicesMarkdown": "chat_ui._nicegui._choices_markdown",
    "ChoicesPreparing": "chat_ui._model",
    "ConversationStore": "chat_ui._stores",
    "DemoAgent": "chat_ui._agents",
    "Interrupt": "chat_ui._model",
    "Interrupted": "chat_ui._model",
    "LLMAgent": "chat_ui._agents.llm",
    "LocalStore": "chat_ui._nicegui._local_store",
    "Message": "chat_ui._model",
    "Notice": "chat_ui._model",
    "RedisStore": "chat_ui._nicegui._redis_store",
    "ReplyChunk": "chat_ui._model",
    "Resume": "chat_ui._model",
    "ScriptAgent": "chat_ui._agents",
    "ScriptError": "chat_ui._agents",
    "TabAlert": "chat_ui._nicegui._tab_alert",
    "ThreadStarted": "chat_ui._model",
    "ToolCall": "chat_ui._model",
    "answers": "chat_ui._model",
    "block_state": "chat_ui._model",
    "chat_page": "chat_ui._nicegui._chat_page",
    "conversation": "chat_ui._model",
    "load_script": "chat_ui._agents",
    "render_markdown": "present_choices",
}
"""Where each public name lives: loaded from there on first use (PEP 562)."""

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


# A name whose extra is not installed (`LLMAgent`, `AGUIAgent`, `RedisStore`) raises
# ModuleNotFoundError when first used.
__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)
