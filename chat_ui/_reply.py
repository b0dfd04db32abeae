"""What an agent's reply is made of besides its text, and how an agent says that it failed.

Most agents yield text chunks only, with any choices block written into the text as a fence. An agent
whose model asks through a `present_choices` tool call yields the block as data instead: the model never
copies JSON into its text, and the chat keeps the call itself in the reply's message (`Message.tool_call`)
so that the agent can give its model the call (and the person's pick) back on later turns.
`ChoicesPreparing` comes first, as soon as the call begins, so that the chat can show its placeholder
while the arguments are still arriving.
"""

from __future__ import annotations

from dataclasses import dataclass

from chat_ui._history import Message, ToolCall
from present_choices import TOOL_NAME, ChoicePrompt


@dataclass(frozen=True)
class ChoicesPreparing:
    """The agent has begun asking with a tool call whose arguments are not complete yet."""


@dataclass(frozen=True)
class ChoicesAsked:
    """The agent asks `prompt`: shown as a choices block after the reply's text."""

    prompt: ChoicePrompt
    call_id: str

    def tool_call(self) -> ToolCall:
        """The call as the reply's message keeps it."""
        arguments = self.prompt.model_dump(exclude_none=True)
        return {"id": self.call_id, "name": TOOL_NAME, "arguments": arguments}


@dataclass(frozen=True)
class Notice:
    """A short note from the app rather than from the agent, shown after the reply (and never given
    back to the agent): for example that the agent's choices could not be shown."""

    text: str


ReplyChunk = str | ChoicesPreparing | ChoicesAsked | Notice


class AgentError(Exception):
    """An agent's failure, worded for the person; the chat shows the message as it is."""


class ReplyDraft:
    """A reply as it arrives: its text so far, the block it asks, and the app's notices about it."""

    def __init__(self) -> None:
        self._text: list[str] = []  # joined only when shown: appending a chunk stays cheap
        self.preparing = False
        self.asked: ChoicesAsked | None = None
        self.notices: list[str] = []

    def add(self, chunk: ReplyChunk) -> None:
        if isinstance(chunk, str):
            self._text.append(chunk)
        elif isinstance(chunk, ChoicesPreparing):
            self.preparing = True
        elif isinstance(chunk, ChoicesAsked):
            self.asked, self.preparing = chunk, False
        else:
            self.notices.append(chunk.text)
            self.preparing = False

    def text(self) -> str:
        """What the reply has said so far, without the block it asks."""
        return "".join(self._text)

    def says_nothing(self) -> bool:
        """Whether there is nothing to show yet: no text, no block, no placeholder."""
        return not self.text().strip() and self.asked is None and not self.preparing

    def message(self) -> Message | None:
        """The finished reply as a history message; None when it said nothing."""
        text = self.text()
        if self.asked is not None:
            call = self.asked.tool_call()
            return {"role": "assistant", "content": text.rstrip(), "tool_call": call}
        return {"role": "assistant", "content": text} if text.strip() else None
