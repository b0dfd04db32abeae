"""chat_ui: a NiceGUI chat that renders ```choices fences as accessible button groups.

Embed `ChoicesMarkdown` to show one assistant message with its buttons, `ChatView` for a whole
conversation with an `Agent`, or call `chat_page` in a page function for the full page.
"""

from chat_ui._agents import Agent, DemoAgent, ScriptAgent, ScriptError, load_script
from chat_ui._chat_page import chat_page
from chat_ui._chat_view import ChatView
from chat_ui._choice_group import ChoiceGroup
from chat_ui._choices_markdown import ChoicesMarkdown
from chat_ui._history import BlockState, Message, answers, block_state, conversation
from present_choices import render_markdown  # the one renderer, shared with the web portal

__all__ = [
    "Agent",
    "BlockState",
    "ChatView",
    "ChoiceGroup",
    "ChoicesMarkdown",
    "DemoAgent",
    "Message",
    "ScriptAgent",
    "ScriptError",
    "answers",
    "block_state",
    "chat_page",
    "conversation",
    "load_script",
    "render_markdown",
]
