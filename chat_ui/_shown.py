"""What a message shows, as parts a front end draws: the UI-free half of the Gradio and Streamlit
adapters.

The NiceGUI chat keeps its elements and updates them; Gradio and Streamlit draw a message again
from data each time. Both draw what this module says, and it says what `chat_ui`'s rules decide:
the segments of `split_message`, the block a tool call asked (`asked_prompt`), and each block's state
from the message that followed it (`block_state`). Gradio shows options only under the last message
and drops them once answered, so a block that is no longer pending shows a mark instead of buttons:
`✓ <label>` once answered, "Answered by typing" once a typed message passed it by. A reply still
streaming shows its questions without buttons: the agent has not finished its turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from chat_ui._conversation import SILENT_REPLY, Message, answers, asked_prompt, block_state
from present_choices import ChoiceOption, ChoicePrompt, split_message
from present_choices._fence import ChoicesSegment, IncompleteSegment, MarkdownSegment
from present_choices._translation import N_, spoken

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
    """One message as drawn: who says it, and its parts in order."""

    role: str  # "user", "assistant", or "notice" (the app speaking: an error notice)
    parts: list[Part]

    @property
    def options(self) -> list[ChoiceOption]:
        """The options to press under this message, block after block."""
        return [option for part in self.parts if isinstance(part, Block) for option in part.options]


def shown_history(history: Sequence[Message]) -> list[tuple[int, Shown]]:
    """Each message of `history` that shows, with its place in it, as its parts (answers to
    interrupts show in their reply, and a reply that said nothing does not show)."""
    shown: list[tuple[int, Shown]] = []
    for index, (message, answer) in enumerate(zip(history, answers(history), strict=True)):
        if message["role"] == "user":
            shown.append((index, Shown("user", [Text(message["content"])])))
        elif message["role"] == "error":
            shown.append((index, Shown("notice", [Text(message["content"])])))
        elif message["role"] == "assistant" and message != SILENT_REPLY:
            shown.append((index, Shown("assistant", reply_parts(message, answer))))
    return shown


def reply_parts(message: Message, answer: str | None, *, streaming: bool = False) -> list[Part]:
    """The parts of the assistant `message`, its blocks in the state `answer` gives them (the
    first user message after it; None while none has come)."""
    parts = content_parts(
        message["content"], asked_prompt(message), answer, streaming=streaming, preparing=False
    )
    for interrupt in message.get("interrupts", []):
        parts.append(Text(interrupt["message"], quiet=True))
    if message.get("cut_off"):
        parts.append(Text(spoken().gettext(CUT_OFF), quiet=True))
    return parts


def content_parts(
    content: str,
    asked: ChoicePrompt | None,
    answer: str | None,
    *,
    streaming: bool,
    preparing: bool,
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
            parts.append(_block(segment.prompt, answer, streaming=streaming))
        elif isinstance(segment, IncompleteSegment):
            parts.append(Text(spoken().gettext(PREPARING), quiet=True))
        else:  # malformed: the fence as the code block it is, never an error
            parts.append(Markdown(segment.raw))
    return parts


def _block(prompt: ChoicePrompt, answer: str | None, *, streaming: bool) -> Block:
    state = block_state(prompt, answer)
    if state.status == "answered":
        (label,) = [option.label for option in prompt.options if option.value == state.chosen]
        return Block(prompt.question, prompt.context, mark=f"{ANSWERED_MARK} {label}")
    if state.status == "outdated":
        return Block(prompt.question, prompt.context, mark=spoken().gettext(ANSWERED_BY_TYPING))
    if streaming:
        return Block(prompt.question, prompt.context)
    return Block(prompt.question, prompt.context, options=list(prompt.options))


def offered(history: Sequence[Message], value: str) -> bool:
    """Whether an option of a pending block in `history` has `value`: a click sends it as the
    person's message only then (a click on a block already answered, or a second click, is not one)."""
    return any(
        option.value == value for _, message in shown_history(history) for option in message.options
    )
