"""The conversation history and the block states derived from it.

A choices block has no state of its own: whether it is pending, answered or outdated follows from the
messages after it. Deriving it (instead of storing it beside the history) is what makes a reloaded
page or a replayed conversation look exactly like the live one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, NotRequired, TypedDict

from markdown_it import MarkdownIt

from present_choices import ChoicePrompt, ChoicesSegment, render_fence, split_message

Role = Literal["user", "assistant", "error"]
BlockStatus = Literal["pending", "answered", "outdated"]


class Message(TypedDict):
    """One chat message as stored: plain JSON, so it persists in NiceGUI's storage as it is.

    `error` messages tell the person that the agent failed; they are part of what the person saw,
    so they are kept, but agents never see them (see `conversation`).

    `tool_call_id` marks an assistant message whose last choices block was asked by the model with a
    tool call (see `with_block`): the block is in `content`, so it renders and decides its state like
    any other, and the id lets the agent give the model back its own call on later turns.
    """

    role: Role
    content: str
    tool_call_id: NotRequired[str]


@dataclass(frozen=True)
class BlockState:
    """What a choices block shows: `chosen` is the picked option's value when `status` is answered."""

    status: BlockStatus
    chosen: str | None = None


PENDING = BlockState("pending")


def block_state(prompt: ChoicePrompt, answer: str | None) -> BlockState:
    """The state of a block given `answer`, the first user message after it (None: none yet).

    Only the first user message counts: once someone has moved on, later messages cannot re-answer
    an old question, so a highlight never moves.
    """
    if answer is None:
        return PENDING
    if any(option.value == answer for option in prompt.options):
        return BlockState("answered", answer)
    return BlockState("outdated")


def answers(history: Sequence[Message]) -> list[str | None]:
    """For each message, the content of the first user message after it (None when none follows)."""
    result: list[str | None] = [None] * len(history)
    following: str | None = None
    for index in range(len(history) - 1, -1, -1):
        result[index] = following
        if history[index]["role"] == "user":
            following = history[index]["content"]
    return result


def conversation(history: Sequence[Message]) -> list[Message]:
    """The messages an agent is given: what the person and the agent said, without error notices."""
    return [message for message in history if message["role"] != "error"]


def with_block(text: str, prompt: ChoicePrompt) -> str:
    """A reply's text followed by `prompt` as a choices block: how an asked block is kept in history."""
    return followed_by(text, render_fence(prompt))


def followed_by(text: str, fence: str) -> str:
    """`text`, then `fence` as a block of its own; a code fence the text left open is closed first,
    or it would swallow what follows."""
    text = text.rstrip()
    if not text:
        return fence
    return f"{text}{_closing_of_open_fence(text)}\n\n{fence}"


def asked_block(message: Message) -> tuple[str, ChoicePrompt] | None:
    """The text before the block and the block's prompt, for a message made by `with_block` and marked
    with a `tool_call_id`; None for any other message (and for one whose content was changed since)."""
    if "tool_call_id" not in message:
        return None
    content = message["content"]
    segments = split_message(content)
    last = segments[-1] if segments else None
    if not isinstance(last, ChoicesSegment) or not content.rstrip().endswith(last.raw):
        return None
    return content.rstrip()[: -len(last.raw)].rstrip(), last.prompt


def _closing_of_open_fence(text: str) -> str:
    """A line closing the code fence that `text` ends inside, or "" when it ends inside none."""
    tokens = _parser().parse(text)
    last = tokens[-1] if tokens else None
    if last is None or last.type != "fence" or last.map is None:
        return ""
    last_line = text.rsplit("\n", 1)[-1].strip()
    closes = set(last_line) == {last.markup[0]} and len(last_line) >= len(last.markup)
    return "" if last.map[1] - last.map[0] >= 2 and closes else f"\n{last.markup}"


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark")
