"""The last screen of a batch: every answer listed, Enter on "Send" sends them all, Enter on an
answer goes back to change it (Shift-Tab: back to the last question).

The answers are said in the person's language, as the person reads them ("Selected: Login and
Export"), not as the agent's summary words them: that one stays English for the agent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import questionary
from prompt_toolkit.formatted_text import StyleAndTextTuples

from present_choices._translation import Translation, terminal_translation
from provide_choice._contract._meaning import Submission, meaning
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._closing import described
from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._state import (
    OverallNote,
    QuestionState,
    overall_note_line,
)
from provide_choice._transports._terminal_view._style import STYLE

SEND = "send"


@dataclass
class BatchFrame:
    """The frame of a batch's own screens (its settings, its review): the batch's title, what the
    screen is about (in the language it is shown in), the overall note."""

    title: str
    about: Callable[[Translation], str]
    question: LiveQuestion
    overall: OverallNote
    can_go_back: bool = False

    @property
    def deadline(self) -> float:
        return time.monotonic() + self.question.seconds_left()

    @property
    def translation(self) -> Translation:
        return terminal_translation(self.question.settings.language)

    def header(self) -> StyleAndTextTuples:
        header: StyleAndTextTuples = [("class:title", self.title), ("", "\n")]
        header += [("class:progress", self.about(self.translation)), ("", "\n")]
        return header + overall_note_line(self.overall.text, self.translation)


async def review(
    frame: BatchFrame, states: list[QuestionState], drafts: dict[str, Submission]
) -> int | None:
    """Show the answers; None when the person sends them, else the index of the question they
    want to change. Raises `WentBack` for the last question."""
    _ = frame.translation
    choices = [questionary.Choice(_.gettext("Send these answers"), SEND)]
    for index, state in enumerate(states):
        assert state.place is not None
        draft = drafts[state.place.question_id]
        answer = described(state.request, meaning(draft, state.request, state.settings), _)
        line = _.gettext(
            "{number}. {name}: {answer}", number=index + 1, name=state.place.name, answer=answer
        )
        choices.append(questionary.Choice(line, str(index)))
    picked = await Screen(frame).show(
        questionary.select(_.gettext("Send these answers?"), choices, instruction=" ", style=STYLE),
        hints=[_.gettext("↑↓ move"), _.gettext("Enter on an answer changes it")],
    )
    return None if picked == SEND else int(str(picked))
