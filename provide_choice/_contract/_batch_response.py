"""What a batch's call replies: `answers` in question order, each through the one `normalize`.

A batch ends as a whole (one session, one outcome): answered (`BatchAnswered`, every question), or
cancelled or timed out half-way, when the answers the person had given are kept (the outcome's
`kept`) and every other question returns what the person's timeout action says. The summary has one
sentence per question, so an agent's log reads what happened to each.
"""

from __future__ import annotations

from present_choices import ChoicesError
from provide_choice._contract._answer_checks import outcome_problems
from provide_choice._contract._batch import Asked, BatchQuestion, BatchRequest
from provide_choice._contract._outcomes import (
    Answered,
    BatchAnswered,
    Cancelled,
    FromAnswersFile,
    NobodyAsked,
    PendingLaunch,
    Reply,
    StillOpen,
    TimedOut,
)
from provide_choice._contract._response import (
    ProvideChoiceResponse,
    QuestionAnswer,
    Selection,
    answerer,
    normalize,
    status_of,
    summarize,
    unchosen,
)
from provide_choice._contract._settings import TimeoutAction
from provide_choice._contract._transport_table import TransportName

SINGLE_ANSWER_TO_BATCH = "a single answer cannot answer a batch: answer each question by its id"


def respond(
    asked: Asked,
    outcome: Reply | FromAnswersFile,
    transport: TransportName | None,
    *,
    url: str | None = None,
    note: str | None = None,
) -> ProvideChoiceResponse:
    """The response to what was asked, one question or a batch: the one way a call's reply is
    built. Raises `ChoicesError` for an outcome the request forbids. A rule of the answers file
    answers as a person would, checked alike; its summary says where the answer came from. An
    ending through another surface than `transport` (`via`: a mirror) names that one."""
    if isinstance(outcome, FromAnswersFile):
        response = respond(asked, outcome.answer, transport, url=url, note=outcome.note)
        return response.model_copy(update={"answered_by": "answers_file"})
    transport = getattr(outcome, "via", None) or transport
    if isinstance(asked, BatchRequest):
        return normalize_batch(asked, outcome, transport, url=url, note=note)
    return normalize(asked, outcome, transport, url=url, note=note)


def batch_outcome_problems(batch: BatchRequest, outcome: Reply) -> list[str]:
    """Why this outcome cannot end this batch (empty when it can): each answer is checked against
    its own question, prefixed by the question's id."""
    if isinstance(outcome, Answered):
        return [SINGLE_ANSWER_TO_BATCH]
    if isinstance(outcome, BatchAnswered):
        answers = outcome.answers
        missing = [item.id for item in batch.questions if item.id not in answers]
        problems = [f"{question_id}: not answered" for question_id in missing]
    elif isinstance(outcome, Cancelled | TimedOut):
        answers, problems = outcome.kept, []
    else:
        return []
    unknown = [question_id for question_id in answers if batch.question(question_id) is None]
    problems += [f"{question_id}: is not a question of this batch" for question_id in unknown]
    for item in batch.questions:
        if item.id in answers:
            problems += [
                f"{item.id}: {problem}"
                for problem in outcome_problems(item.request, answers[item.id])
            ]
    if (
        isinstance(outcome, BatchAnswered)
        and not batch.allow_annotations
        and outcome.global_annotation
    ):
        problems.append("the overall note is not allowed: the request has allow_annotations false")
    return problems


def normalize_batch(
    batch: BatchRequest,
    outcome: Reply,
    transport: TransportName | None,
    *,
    url: str | None = None,
    note: str | None = None,
) -> ProvideChoiceResponse:
    """A batch's response: `selection` says how it ended (its answer fields stay empty), `answers`
    holds each question's answer, built by `normalize` from that question alone."""
    problems = batch_outcome_problems(batch, outcome)
    if problems:
        raise ChoicesError(problems)
    status, session_id, url = status_of(outcome, url)
    global_annotation = None
    if isinstance(outcome, BatchAnswered):
        global_annotation = (outcome.global_annotation or "").strip() or None
    endings = _endings(batch, outcome)
    summary = _summary(batch, outcome, endings)
    if note and not isinstance(outcome, PendingLaunch):
        summary += f" {note}"
    return ProvideChoiceResponse(
        action_status=status,
        answered_by=answerer(outcome),
        selection=Selection(
            selected_ids=[],
            custom_input=None,
            option_annotations={},
            global_annotation=global_annotation,
            placeholder_used=False,
            transport=transport,
            session_id=session_id,
            url=url,
            summary=summary,
        ),
        answers=[_question_answer(item, endings[item.id], transport) for item in batch.questions],
    )


def summarize_batch(batch: BatchRequest, outcome: Reply) -> str:
    """The batch's summary: how it ended, then one sentence per question."""
    return _summary(batch, outcome, _endings(batch, outcome))


QuestionEnding = Answered | TimedOut | NobodyAsked | None
"""How one question of a batch ended; None while the batch is open."""


def _endings(batch: BatchRequest, outcome: Reply) -> dict[str, QuestionEnding]:
    return {item.id: _ending_of(item, outcome) for item in batch.questions}


def _ending_of(item: BatchQuestion, outcome: Reply) -> QuestionEnding:
    """How one question of the batch ended: its answer, what the timeout action returns for it
    (cancel and timeout alike), what a batch nobody was asked returns, or None while the batch
    is still open."""
    match outcome:
        case BatchAnswered():
            return outcome.answers[item.id]
        case Cancelled() | TimedOut() if item.id in outcome.kept:
            return outcome.kept[item.id]
        case TimedOut():
            return TimedOut(action=outcome.action)
        case NobodyAsked():
            return outcome
        case Cancelled():
            return TimedOut(action=_rest(outcome))
        case _:
            return None


def _rest(cancelled: Cancelled) -> TimeoutAction:
    return cancelled.rest or "return_nothing"


def _question_answer(
    item: BatchQuestion, ending: QuestionEnding, transport: TransportName | None
) -> QuestionAnswer:
    if ending is None:  # still open: nothing answered yet
        return QuestionAnswer(
            id=item.id,
            selected_ids=[],
            custom_input=None,
            option_annotations={},
            placeholder_used=False,
        )
    selection = normalize(item.request, ending, transport).selection
    return QuestionAnswer(
        id=item.id,
        selected_ids=selection.selected_ids,
        custom_input=selection.custom_input,
        option_annotations=selection.option_annotations,
        placeholder_used=selection.placeholder_used,
    )


def _summary(batch: BatchRequest, outcome: Reply, endings: dict[str, QuestionEnding]) -> str:
    """What happened, then one sentence per question ("Database: Selected: PostgreSQL.")."""
    count = len(batch.questions)
    answered = sum(isinstance(ending, Answered) for ending in endings.values())
    match outcome:
        case PendingLaunch():
            return outcome.command
        case StillOpen():
            return summarize(batch.questions[0].request, outcome)
        case BatchAnswered():
            opening = f"Answered {_questions(count)}"
            if (outcome.global_annotation or "").strip():
                opening += " (with an overall note)"
        case Cancelled(by="agent"):
            opening = f"Cancelled by the agent after {answered} of {_questions(count)}"
        case Cancelled(detail=str(detail)):
            opening = f"{detail} after {answered} of {_questions(count)}"
        case Cancelled():
            opening = f"Cancelled by the person after {answered} of {_questions(count)}"
        case TimedOut():
            opening = f"The deadline passed after {answered} of {_questions(count)}"
        case NobodyAsked():
            opening = f"Nobody was asked: {outcome.reason}; {_questions(count)}"
        case _:
            opening = ""
    sentences = [f"{opening}."]
    for item in batch.questions:
        ending = endings[item.id]
        if ending is None:
            continue
        sentence = summarize(item.request, ending)
        if isinstance(ending, TimedOut):
            sentence = "Not answered; " + sentence.removeprefix("No answer before the deadline; ")
        elif isinstance(ending, NobodyAsked):
            sentence = unchosen(item.request, ending.action, "a person")
            sentence = sentence[:1].upper() + sentence[1:]
        sentences.append(f"{item.name}: {sentence}")
    return " ".join(sentences)


def _questions(count: int) -> str:
    return f"{count} question" + ("" if count == 1 else "s")
