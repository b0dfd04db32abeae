"""What the screens of one question share while it is open.

The settings editor changes it (settings, deadline, hidden options); the question screens read it and
keep the notes in it; the screen frame draws the header and the time left from it. One object passed
around, instead of a class that holds every screen so that they can share attributes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provide_choice._contract._presentation import notes_offered, submits_on_selection
from provide_choice._contract._request import ProvideChoiceOption, ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings


@dataclass
class QuestionState:
    """One question in the terminal: the request, the person's settings, and what they did so far.

    `deadline` is a `time.monotonic()` value; a timeout override set meanwhile moves it later."""

    request: ProvideChoiceRequest
    settings: InteractionSettings
    deadline: float
    hidden_ids: frozenset[str] = frozenset()
    notes: dict[str, str] = field(default_factory=dict)
    global_note: str = ""

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
