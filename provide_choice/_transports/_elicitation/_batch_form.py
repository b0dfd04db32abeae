"""A batch as one elicitation form: one field per question, named by the question's id.

A form is flat, so each question is one field (a single choice, a multiple choice or a text),
titled with the question's header and described by its prompt; a hybrid question adds an optional
text field beside it (`<id>.own_answer`: a dot is never part of an id, so no name can collide).
The overall note is one more optional field. What a form cannot carry (option previews, notes on
single options) is not offered here; the documentation says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from provide_choice._contract._batch import BatchQuestion, BatchRequest
from provide_choice._contract._batch_meaning import (
    BatchSubmission,
    batch_answer_from,
    overall_note_offered,
)
from provide_choice._contract._outcomes import BatchAnswered
from provide_choice._contract._settings import InteractionSettings
from provide_choice._transports._elicitation._form import (
    FieldNames,
    question_fields,
    read_submission,
)

if TYPE_CHECKING:
    from mcp_types import ElicitRequestFormParams

OWN_ANSWER_SUFFIX = ".own_answer"
BATCH_NOTE = "batch.note"
"""The overall note's field (a dot: never a question's id)."""


def batch_form_params(
    batch: BatchRequest, settings: InteractionSettings, problem: str | None = None
) -> ElicitRequestFormParams:
    """The `elicitation/create` parameters for a batch; `problem` says why it is asked again."""
    count = len(batch.questions)
    message = f"{batch.title}\n\n{count} question{'s' if count > 1 else ''}: answer each below."
    if problem is not None:
        message = f"Your answer did not fit: {problem}. Please answer again.\n\n{message}"
    from mcp_types import ElicitRequestFormParams  # the SDK loads only when a form is shown

    return ElicitRequestFormParams(
        mode="form", message=message, requested_schema=batch_form_schema(batch, settings)
    )


def batch_form_schema(batch: BatchRequest, settings: InteractionSettings) -> dict[str, Any]:
    properties: dict[str, dict[str, Any]] = {}
    required: list[str] = []
    for item in batch.questions:
        fields, needed = question_fields(
            item.request, settings, _names(item), (item.name, item.request.prompt)
        )
        properties |= fields
        required += needed
    if overall_note_offered(batch, settings):
        properties[BATCH_NOTE] = {"type": "string", "title": "A note for the agent (optional)"}
    return {"type": "object", "properties": properties, "required": required}


def read_batch_answer(
    batch: BatchRequest, settings: InteractionSettings, content: Mapping[str, object]
) -> BatchAnswered:
    """The form's content as the batch's answer. Raises `ChoicesError` with every problem worded
    for the person, each with the question's header (or id)."""
    submissions = {}
    problems: list[str] = []
    for item in batch.questions:
        submission, own = read_submission(item.request, settings, content, _names(item))
        submissions[item.id] = submission
        problems += [f"{item.name}: {problem}" for problem in own]
    if problems:
        raise ChoicesError(problems)
    note = content.get(BATCH_NOTE) if overall_note_offered(batch, settings) else None
    batch_submission = BatchSubmission(
        answers=submissions, global_annotation=note if isinstance(note, str) else None
    )
    return batch_answer_from(batch_submission, batch, settings)


def _names(item: BatchQuestion) -> FieldNames:
    return FieldNames(item.id, item.id, item.id, item.id + OWN_ANSWER_SUFFIX)
