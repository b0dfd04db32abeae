"""What a message shows, as parts a front end draws: for the front ends that draw a message again
from data each time (Gradio, Streamlit) rather than keep its elements and update them (NiceGUI).

It says what `chat_ui`'s rules decide: the segments of `split_message`, the block a tool call asked
(`asked_prompt`), and each block's state (`block_state`) from the answer the session gives it (the
first user message after it). Gradio shows options only under the last message and drops them once
answered, so a block that is no longer pending shows a mark instead of buttons: `✓ <label>` once
answered, "Answered by typing" once a typed message passed it by. A reply still streaming shows its
questions without buttons: the agent has not finished its turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from chat_ui._model import SILENT_REPLY, Message, asked_prompt, block_state
from present_choices import ChoiceOption, ChoicePrompt, split_message
from present_choices._fence import ChoicesSegment, IncompleteSegment, MarkdownSegment
from present_choices._translation import N_, Translation

ANSWERED_MARK = "✓"
ANSWERED_BY_TYPING = N_("Answered by typing")
PREPARING = N_("preparing choices...")
CUT_OFF = N_(
    "Cut off: the chat app stopped while writing this reply. Send your message again to ask again."
)


@dataclass(frozen=True)
class Markdown:
    """Agent markdown, as the agent wrote it (a malformed block is the code fence it is)."""

    text: str


@dataclass(frozen=True)
class Text:
    """Text shown exactly as written, never as markdown: what the person said, an error notice;
    `quiet` for the app's own notes about a reply (a placeholder, an interrupt, a reply cut off)."""

    text: str
    quiet: bool = False


@dataclass(frozen=True)
class Block:
    """A choices block: its question and context, then either `options` to press (pending and
    complete) or `mark`, what became of it (answered or outdated); both empty while it streams."""

    question: str
    context: str | None = None
    options: list[ChoiceOption] = field(default_factory=list)
    mark: str | None = None


Part = Markdown | Text | Block


@dataclass(frozen=True)
class Shown:
    """One message as drawn: who says it (`notice`: the app, about a failure) and its parts."""

    role: Literal["user", "assistant", "notice"]
    parts: list[Part]

    @property
    def options(self) -> list[ChoiceOption]:
        """The options to press under this message, block after block."""
        return [option for part in self.parts if isinstance(part, Block) for option in part.options]


def shown_message(message: Message, answer: str | None, words: Translation) -> Shown | None:
    """`message` as drawn, its blocks in the state `answer` gives them (None: it does not show, an
    answer to an interrupt showing in its reply, or a reply that said nothing)."""
    if message["role"] == "user":
        return Shown("user", [Text(message["content"])])
    if message["role"] == "error":
        return Shown("notice", [Text(message["content"])])
    if message["role"] == "assistant" and message != SILENT_REPLY:
        parts = content_parts(
            message["content"], asked_prompt(message), answer, words, streaming=False
        )
        parts += [
            Text(interrupt["message"], quiet=True) for interrupt in message.get("interrupts", [])
        ]
        if message.get("cut_off"):
            parts.append(Text(words.gettext(CUT_OFF), quiet=True))
        return Shown("assistant", parts)
    return None


def content_parts(
    content: str,
    asked: ChoicePrompt | None,
    answer: str | None,
    words: Translation,
    *,
    streaming: bool,
    preparing: bool = False,
) -> list[Part]:
    """The parts of a reply's text and of the block it asked with a tool call (`preparing`: one
    still on its way). A fence still being written shows a placeholder, never half its JSON."""
    segments = split_message(content)
    if asked is not None:
        segments.append(ChoicesSegment(asked, raw=""))
    elif preparing:
        segments.append(IncompleteSegment(raw=""))
    parts: list[Part] = []
    for segment in segments:
        if isinstance(segment, MarkdownSegment):
            parts.append(Markdown(segment.text))
        elif isinstance(segment, ChoicesSegment):
            parts.append(_block(segment.prompt, answer, words, streaming=streaming))
        elif isinstance(segment, IncompleteSegment):
            parts.append(Text(words.gettext(PREPARING), quiet=True))
        else:  # malformed: the fence as the code block it is, never an error
            parts.append(Markdown(segment.raw))
    return parts


def _block(
    prompt: ChoicePrompt, answer: str | None, words: Translation, *, streaming: bool
) -> Block:
    state = block_state(prompt, answer)
    if state.status == "answered":
        (label,) = [option.label for option in prompt.options if option.value == state.chosen]
        return Block(prompt.question, prompt.context, mark=f"{ANSWERED_MARK} {label}")
    if state.status == "outdated":
        return Block(prompt.question, prompt.context, mark=words.gettext(ANSWERED_BY_TYPING))
    if streaming:
        return Block(prompt.question, prompt.context)
    return Block(prompt.question, prompt.context, options=list(prompt.options))
