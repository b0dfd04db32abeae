"""The last screen of a batch: every answer listed, Enter on "Send" sends them all, Enter on an
answer goes back to change it (Shift-Tab: back to the last question)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import questionary
from prompt_toolkit.formatted_text import StyleAndTextTuples

from provide_choice._contract._meaning import Submission, meaning
from provide_choice._contract._response import summarize
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal._screen import Screen
from provide_choice._transports._terminal._state import OverallNote, QuestionState
from provide_choice._transports._terminal._style import STYLE

SEND = "send"


@dataclass
class BatchFrame:
    """The frame of a batch's own screens (its settings, its review): the batch's title, what the
    screen is about, the overall note."""

    title: str
    about: str
    question: LiveQuestion
    overall: OverallNote
    can_go_back: bool = False

    @property
    def deadline(self) -> float:
        return time.monotonic() + self.question.seconds_left()

    def header(self) -> StyleAndTextTuples:
        header: StyleAndTextTuples = [("class:title", self.title), ("", "\n")]
        header += [("class:progress", self.about), ("", "\n")]
        if self.overall.text:
            header += [("class:note", f"✎ Overall note: {self.overall.text}"), ("", "\n")]
        return header


async def review(
    frame: BatchFrame, states: list[QuestionState], drafts: dict[str, Submission]
) -> int | None:
    """Show the answers; None when the person sends them, else the index of the question they
    want to change. Raises `WentBack` for the last question."""
    choices = [questionary.Choice("Send these answers", SEND)]
    for index, state in enumerate(states):
        assert state.place is not None
        draft = drafts[state.place.question_id]
        answer = summarize(state.request, meaning(draft, state.request, state.settings))
        chip = state.place.name
        choices.append(questionary.Choice(f"{index + 1}. {chip}: {answer}", str(index)))
    picked = await Screen(frame).show(
        questionary.select("Send these answers?", choices, instruction=" ", style=STYLE),
        hints=["↑↓ move", "Enter on an answer changes it"],
    )
    return None if picked == SEND else int(str(picked))
