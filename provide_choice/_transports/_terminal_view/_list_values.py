"""What an entry of the option list stands for, and what the note keys hand back.

The hybrid list holds one entry that is not an option: "type my own answer". It gets a type of its
own, so a value from the list is `str | OwnAnswer` and the type checker sees every place that must
tell the two apart, instead of a bare `object()` hidden among the option ids.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final


class OwnAnswer(enum.Enum):
    """The list entry that leads to typing an own answer (hybrid mode); never an option id.

    A plain `Enum`, not a `StrEnum`: its member must never equal an option id."""

    ENTRY = enum.auto()


OWN_ANSWER: Final = OwnAnswer.ENTRY

ListValue = str | OwnAnswer
"""The value of one entry of the option list: an option id, or the own-answer entry."""


@dataclass(frozen=True)
class NoteRequest:
    """The person pressed a note key in the option list; `pointed` and `checked` restore the list.

    `option_id` is None for the overall note."""

    option_id: str | None
    pointed: ListValue
    checked: tuple[ListValue, ...]
