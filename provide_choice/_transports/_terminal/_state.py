"""What the screens of one question share while it is open.

The settings editor changes it (settings, deadline, hidden options); the question screens read it and
keep the notes in it; the screen frame draws the header and the time left from it. One object passed
around, instead of a class that holds every screen so that they can share attributes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from provide_choice._contract._meaning import Submission, meaning
from provide_choice._contract._presentation import (
    notes_offered,
    shown_placeholder,
    submits_on_selection,
)
from provide_choice._contract._request import ProvideChoiceOption, ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings
from provide_choice._transports._base import LiveQuestion


@dataclass
class QuestionState:
    """One question in the terminal: the request, the live question (its settings and deadline
    are the question's, never copied here), and what the person did so far."""

    request: ProvideChoiceRequest
    question: LiveQuestion
    hidden_ids: frozenset[str] = frozenset()
    notes: dict[str, str] = field(default_factory=dict)
    global_note: str = ""

    @property
    def settings(self) -> InteractionSettings:
        return self.question.settings

    @property
    def deadline(self) -> float:
        """The question's deadline as a `time.monotonic()` value of this process."""
        return time.monotonic() + self.question.seconds_left()

    # Effective behaviour: the person's settings override what the agent asked for.

    @property
    def notes_offered(self) -> bool:
        return notes_offered(self.request, self.settings)

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
        suggestion in view (in its field, or on the own-answer entry of the list)."""
        return Submission(
            selected_ids=selected_ids,
            custom_input=typed,
            placeholder_shown=not typed and self.placeholder is not None,
            option_annotations=self.notes,
            global_annotation=self.global_note or None,
        )

    def gives_own_answer(self, selected_ids: list[str], typed: str | None) -> bool:
        """Whether this submission carries an own answer, as `_meaning` decides it (typed text, or
        the suggestion where an empty field sends it)."""
        answer = meaning(self.submission(selected_ids, typed), self.request, self.settings)
        return answer.custom_input is not None
