"""What the screens of one question share while it is open.

The settings editor changes it (settings, deadline, hidden options); the question screens read it and
keep the notes in it; the screen frame draws the header and the time left from it. One object passed
around, instead of a class that holds every screen so that they can share attributes.

A batch gives each of its questions a state of its own (its notes, its place in the batch), all of
them sharing the live question and the batch's one overall note (`OverallNote`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples

from present_choices._translation import Translation, terminal_translation
from provide_choice._contract._meaning import Submission, meaning
from provide_choice._contract._presentation import (
    notes_offered,
    shown_placeholder,
    submits_on_selection,
)
from provide_choice._contract._request import ProvideChoiceOption, ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._markdown import markdown_text


@dataclass
class OverallNote:
    """The note on the whole question, or on the whole batch: one, whichever question shows it."""

    text: str = ""
    offered: bool = True


def overall_note_line(note: str, translation: Translation) -> StyleAndTextTuples:
    """The overall note under a header, once the person wrote one."""
    if not note:
        return []
    return [("class:note", translation.gettext("✎ Overall note: {note}", note=note)), ("", "\n")]


@dataclass(frozen=True)
class Place:
    """Where a question stands in its batch: `index` from 0, of `count`, with its id and chip."""

    question_id: str
    index: int
    count: int
    header: str | None

    @property
    def name(self) -> str:
        """Its header, else its id: as `BatchQuestion.name` calls it."""
        return self.header or self.question_id

    def line(self, translation: Translation) -> StyleAndTextTuples:
        """The progress line above the question's prompt: "[Database] 2 of 3"."""
        chip: StyleAndTextTuples = [("class:chip", f"[{self.header}]"), ("", " ")]
        place = translation.gettext("{number} of {count}", number=self.index + 1, count=self.count)
        return [*(chip if self.header else []), ("class:progress", place)]


@dataclass
class QuestionState:
    """One question in the terminal: the request, the live question (its settings and deadline
    are the question's, never copied here), and what the person did so far."""

    request: ProvideChoiceRequest
    question: LiveQuestion
    hidden_ids: frozenset[str] = frozenset()
    notes: dict[str, str] = field(default_factory=dict)
    overall: OverallNote = field(default_factory=OverallNote)
    place: Place | None = None
    """Its place in a batch; None for a question asked on its own."""

    @property
    def settings(self) -> InteractionSettings:
        return self.question.settings

    @property
    def deadline(self) -> float:
        """The question's deadline as a `time.monotonic()` value of this process."""
        return time.monotonic() + self.question.seconds_left()

    @property
    def translation(self) -> Translation:
        """The person's language: their setting, else this terminal's variables (read at every
        screen: a change in the settings shows at once)."""
        return terminal_translation(self.settings.language)

    @property
    def global_note(self) -> str:
        return self.overall.text

    @global_note.setter
    def global_note(self, text: str) -> None:
        self.overall.text = text

    @property
    def can_go_back(self) -> bool:
        """Whether a question of a batch comes before this one (the back key goes to it)."""
        return self.place is not None and self.place.index > 0

    def header(self) -> StyleAndTextTuples:
        """What every screen of this question shows above its own lines."""
        header: StyleAndTextTuples = [("class:title", self.request.title), ("", "\n")]
        if self.place is not None:
            header += [*self.place.line(self.translation), ("", "\n")]
        header += [*markdown_text(self.request.prompt), ("", "\n")]
        return header + overall_note_line(self.global_note, self.translation)

    # Effective behaviour: the person's settings override what the agent asked for.

    @property
    def notes_offered(self) -> bool:
        return notes_offered(self.request, self.settings)

    @property
    def overall_note_offered(self) -> bool:
        return self.notes_offered and self.overall.offered

    @property
    def submits_on_selection(self) -> bool:
        return submits_on_selection(self.request, self.settings)

    @property
    def visible_options(self) -> list[ProvideChoiceOption]:
        return [option for option in self.request.options or () if option.id not in self.hidden_ids]

    @property
    def placeholder(self) -> str | None:
        """The suggested answer as the person sees it, or None when none is shown."""
        return shown_placeholder(self.request, self.settings)

    def submission(self, selected_ids: list[str], typed: str | None) -> Submission:
        """What the person did, as every surface reports it: an empty answer leaves the shown
        suggestion in view (in its field, or on the own-answer entry of the list). A question of
        a batch leaves the overall note to the batch."""
        return Submission(
            selected_ids=selected_ids,
            custom_input=typed,
            placeholder_shown=not typed and self.placeholder is not None,
            option_annotations=dict(self.notes),
            global_annotation=(self.global_note or None) if self.place is None else None,
        )

    def gives_own_answer(self, selected_ids: list[str], typed: str | None) -> bool:
        """Whether this submission carries an own answer, as `_meaning` decides it (typed text, or
        the suggestion where an empty field sends it)."""
        answer = meaning(self.submission(selected_ids, typed), self.request, self.settings)
        return answer.custom_input is not None
