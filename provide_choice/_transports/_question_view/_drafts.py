"""What the person has chosen and typed so far in the question view, as the server keeps it: the
drafts a reopened page or view shows again, checked when they arrive, and what a draft would submit.
"""

from __future__ import annotations

from typing import Annotated, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from present_choices import ChoicesError
from provide_choice._contract._meaning import Submission
from provide_choice._contract._presentation import notes_offered, shown_placeholder
from provide_choice._contract._request import (
    MODES_WITH_PLACEHOLDER,
    ProvideChoiceRequest,
    describe,
)
from provide_choice._contract._settings import InteractionSettings

TEXT_LIMIT = 10_000
"""Characters of the person's own answer kept in a draft."""
NOTE_LIMIT = 2_000
"""Characters of one note kept in a draft."""


Note = Annotated[str, StringConstraints(max_length=NOTE_LIMIT)]
Model = TypeVar("Model", bound=BaseModel)


class Draft(BaseModel):
    """What the person has chosen and typed so far, in the answer's own field names."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    selected_ids: list[str] = Field(default_factory=list)
    custom_input: str = Field(default="", max_length=TEXT_LIMIT)
    option_annotations: dict[str, Note] = Field(default_factory=dict)
    global_annotation: Note = ""


class BatchDraft(BaseModel):
    """A batch's draft: each question's draft by its id, and the one overall note."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    answers: dict[str, Draft]
    global_annotation: Note = ""


class Visibility(BaseModel):
    """Which options the person hid from this question (never saved: the next question differs)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    hidden_ids: list[str]


def submission_of(
    draft: Draft, request: ProvideChoiceRequest, settings: InteractionSettings
) -> Submission:
    """What a question's draft would submit, as the page's script builds it."""
    typed = draft.custom_input.strip() if request.selection_mode in MODES_WITH_PLACEHOLDER else ""
    notes = notes_offered(request, settings)
    return Submission(
        selected_ids=draft.selected_ids,
        custom_input=typed or None,
        placeholder_shown=not typed
        and request.selection_mode in MODES_WITH_PLACEHOLDER
        and shown_placeholder(request, settings) is not None,
        option_annotations={
            option_id: note.strip()
            for option_id, note in draft.option_annotations.items()
            if notes and note.strip()
        },
    )


def validated(model: type[Model], data: object) -> Model:
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as error:
        raise ChoicesError(describe(error)) from None
