"""What the Gradio and Streamlit front ends share, no UI framework here: a `ChatSession`'s front end
that records what the session shows (`RecordedChat`), what a message shows as parts to draw
(`_shown`), and agent text escaped for a framework's own markdown (`_markdown_text`). Both draw the
whole chat again from data; NiceGUI's front end keeps its elements instead, and needs none of this.
"""

from chat_ui._frameworks._markdown_text import markdown_literal, plain_markdown
from chat_ui._frameworks._recorded import RecordedChat
from chat_ui._frameworks._shown import Block, Markdown, Part, Shown, Text, shown_message

__all__ = [
    "Block",
    "Markdown",
    "Part",
    "RecordedChat",
    "Shown",
    "Text",
    "markdown_literal",
    "plain_markdown",
    "shown_message",
]
