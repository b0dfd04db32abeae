"""What a batch's answer means: each question's `Submission` through the one `answer_from`.

A surface showing a batch reports, for each question, the same raw facts as for a single question,
plus the overall note once. Nothing about a question's meaning is decided here: every answer goes
through `_meaning.answer_from` with its own question, and its problems come back prefixed with the
question's id, all of them at once.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from present_choices import ChoicesError
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._meaning import ON_FIRST_USE, Submission, answer_from, cancel_problems
from provide_choice._contract._outcomes import Answered, BatchAnswered, Cancelled
from provide_choice._contract._request import ProvideChoiceRequest, describe
from provide_choice._contract._settings import InteractionSettings


class BatchSubmission(BaseModel):
    """What the person did when they submitted a batch: each question's submission by its id."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["answered_batch"] = "answered_batch"
    answers: dict[str, Submission]
    global_annotation: str | None = None


BatchReported = Annotated[BatchSubmission | Cancelled, Field(discriminator="kind")]
"""What a surface showing a batch reports: the person submitted it, or cancelled it."""
BATCH_REPORTED_ADAPTER: TypeAdapter[BatchSubmission | Cancelled] = TypeAdapter(
    BatchReported, config=ON_FIRST_USE
)


def batch_answer_from(
    submission: BatchSubmission, batch: BatchRequest, settings: InteractionSettings
) -> BatchAnswered:
    """The answer the batch's submission gives. Raises `ChoicesError` listing every problem of
    every question, each prefixed by the question's id."""
    problems = [
        f"{question_id}: is not a question of this batch"
        for question_id in submission.answers
        if batch.question(question_id) is None
    ]
    answers: dict[str, Answered] = {}
    for item in batch.questions:
        answer = submission.answers.get(item.id)
        if answer is None:
            problems.append(f"{item.id}: not answered")
            continue
        if answer.global_annotation is not None:
            problems.append(f"{item.id}: global_annotation belongs to the batch, not a question")
            answer = answer.model_copy(update={"global_annotation": None})
        try:
            answers[item.id] = answer_from(answer, item.request, settings)
        except ChoicesError as error:
            problems += [f"{item.id}: {problem}" for problem in error.problems]
    note = (submission.global_annotation or "").strip() or None
    if note is not None and not overall_note_offered(batch, settings):
        problems.append("the overall note is not offered: notes are off for this batch")
    if problems:
        raise ChoicesError(problems)
    return BatchAnswered(answers=answers, global_annotation=note)


def overall_note_offered(batch: BatchRequest, settings: InteractionSettings) -> bool:
    """The batch's one overall note needs both: the agent allows it, the person has notes on."""
    return batch.allow_annotations and settings.annotations


def kept_answer(
    submission: Submission, request: ProvideChoiceRequest, settings: InteractionSettings
) -> Answered | None:
    """What a question of a batch keeps, from the person's draft, if the batch ends half-way:
    the answer, when the person gave one (chose or typed something) and it is a valid answer;
    else None. A suggestion the person never touched is not their answer."""
    given = submission.selected_ids or (submission.custom_input or "").strip()
    if not given:
        return None
    try:
        return answer_from(submission, request, settings)
    except ChoicesError:
        return None


def read_batch_reported(
    data: object, batch: BatchRequest, settings: InteractionSettings
) -> BatchAnswered | Cancelled:
    """How a posted report ends the batch: its answer, or the person's cancel. Raises
    `ChoicesError` listing every problem (the page's route answers 422)."""
    try:
        reported = BATCH_REPORTED_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise ChoicesError(describe(error)) from None
    if isinstance(reported, BatchSubmission):
        return batch_answer_from(reported, batch, settings)
    problems = cancel_problems(reported)
    if problems:
        raise ChoicesError(problems)
    return reported
