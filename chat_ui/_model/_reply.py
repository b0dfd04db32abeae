"""What an agent's reply is made of besides its text, and how an agent says that it failed.

Most agents yield text chunks only, with any choices block written into the text as a fence. An agent
whose model asks through a `present_choices` tool call yields the block as data instead: the model never
copies JSON into its text, and the chat keeps the call itself in the reply's message (`Message.tool_call`)
so that the agent can give its model the call (and the person's pick) back on later turns.
`ChoicesPreparing` comes first, as soon as the call begins, so that the chat can show its placeholder
while the arguments are still arriving. An agent that keeps a conversation of its own at a server (an
AG-UI thread) yields `ThreadStarted` when it starts one: the chat keeps the id in the reply's message
(`Message.thread_id`), where the agent finds it on every later turn, after a reload too. A reply that
ends waiting for the person's answers (AG-UI interrupts, tool calls that need approval) yields
`Interrupted` last: the chat keeps the interrupts in the reply's message and shows each as a group.
"""

from __future__ import annotations

from dataclasses import dataclass

from chat_ui._model._conversation import Interrupt, Message, ToolCall
from present_choices import TOOL_NAME, ChoicePrompt
from present_choices._translation import spoken

TOOL_CALL_DESCRIPTION = (
    "Ask the user to pick one of 2 to 4 options, shown as buttons under your message. Use it when "
    "the user has to decide between a few clear alternatives. The call ends your turn: the user's "
    "next message is the `value` of the option they picked, or their own words."
)
"""`present_choices` described to a model whose call the chat shows itself, as buttons drawn from
the call's arguments (rather than the tool's own description, which hands back a fence to copy)."""


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


def choices_not_shown(problems: list[str]) -> Notice:
    """The note shown instead of a block whose call the chat could not accept."""
    return Notice(
        spoken().gettext(
            "The assistant's choices could not be shown: {problems}. Answer in your own words, "
            "or ask it to try again.",
            problems="; ".join(problems),
        )
    )


@dataclass(frozen=True)
class ThreadStarted:
    """The agent has started a conversation of its own, `thread_id`, for this one to continue."""

    thread_id: str


@dataclass(frozen=True)
class Interrupted:
    """The reply ends waiting for the person's answers to `interrupts` (at least one)."""

    interrupts: list[Interrupt]


ReplyChunk = str | ChoicesPreparing | ChoicesAsked | Notice | ThreadStarted | Interrupted


class AgentError(Exception):
    """An agent's failure, worded for the person; the chat shows the message as it is."""


class ReplyDraft:
    """A reply as it arrives: its text so far, the block it asks, the thread it starts, the
    interrupts it ends with, and the app's notices about it."""

    def __init__(self) -> None:
        self._text: list[str] = []  # joined only when shown: appending a chunk stays cheap
        self.preparing = False
        self.asked: ChoicesAsked | None = None
        self.thread_id: str | None = None
        self.interrupts: list[Interrupt] = []
        self.notices: list[str] = []

    def add(self, chunk: ReplyChunk) -> None:
        if isinstance(chunk, str):
            self._text.append(chunk)
        elif isinstance(chunk, ChoicesPreparing):
            self.preparing = True
        elif isinstance(chunk, ChoicesAsked):
            self.asked, self.preparing = chunk, False
        elif isinstance(chunk, ThreadStarted):
            self.thread_id = chunk.thread_id
        elif isinstance(chunk, Interrupted):
            self.interrupts = chunk.interrupts
        else:
            self.notices.append(chunk.text)
            self.preparing = False

    def text(self) -> str:
        """What the reply has said so far, without the block it asks."""
        return "".join(self._text)

    def says_nothing(self) -> bool:
        """Whether there is nothing to show yet: no text, no block, no placeholder, no interrupt."""
        return (
            not self.text().strip()
            and self.asked is None
            and not self.preparing
            and not self.interrupts
        )

    def message(self) -> Message | None:
        """The finished reply as a history message; None when it said nothing."""
        text = self.text()
        message: Message
        if self.asked is not None:
            call = self.asked.tool_call()
            message = {"role": "assistant", "content": text.rstrip(), "tool_call": call}
        elif text.strip() or self.interrupts:
            message = {"role": "assistant", "content": text.rstrip() if self.interrupts else text}
        else:
            return None
        if self.thread_id is not None:
            message["thread_id"] = self.thread_id
        if self.interrupts:
            message["interrupts"] = self.interrupts
        return message

    def partial(self, reply_id: str) -> Message:
        """The reply so far, as saved while it streams (`Message.streaming`)."""
        message = self.message() or {"role": "assistant", "content": self.text()}
        message["streaming"] = reply_id
        return message
