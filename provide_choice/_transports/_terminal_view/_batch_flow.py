"""A batch in the terminal: its settings once, then one question after another, then a review.

Each question is shown by the same screens as a question asked on its own (`answer_question`), with
its chip and its place ("2 of 3") above its prompt. Shift-Tab goes back to the question before,
which opens with the answer given there. Each answer, once given, goes to `keep` as the raw facts
(a `Submission`): the server decides what it means (`kept_answer`), and keeps it if the batch is
cancelled or times out half-way. The review lists the answers; its Enter sends them all, or goes
back to the answer picked. A batch of one question sends on its answer, as the page does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from present_choices._translation import Translation, terminal_translation
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._batch_meaning import (
    BatchSubmission,
    batch_answer_from,
    kept_answer,
    overall_note_offered,
)
from provide_choice._contract._meaning import Submission
from provide_choice._contract._outcomes import Answered, Cancelled, Ending, TimedOut
from provide_choice._contract._settings import InteractionSettings
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._alert import alerting
from provide_choice._transports._terminal_view._flow import answer_question, print_closing_line
from provide_choice._transports._terminal_view._review import BatchFrame, review
from provide_choice._transports._terminal_view._screen import DeadlinePassed, Screen, WentBack
from provide_choice._transports._terminal_view._settings_editor import SettingsEditor
from provide_choice._transports._terminal_view._state import OverallNote, Place, QuestionState

KeepAnswer = Callable[[str, Submission], Awaitable[None]]
"""Tells the open question that the person answered one of its questions (by id) so."""

BatchReported = BatchSubmission | Cancelled | TimedOut


async def run_batch_flow(
    batch: BatchRequest, question: LiveQuestion, keep: KeepAnswer
) -> BatchReported:
    """Show the batch, print one summary line, return what the person did (what it means is
    `_batch_meaning`'s to say). Cancellation of the calling task closes the screen on show."""
    flow = _BatchFlow(batch, question, keep)
    reported: BatchReported
    try:
        with alerting(question, batch.title):
            reported = await flow.ask()
    except KeyboardInterrupt:
        reported = Cancelled()
    except DeadlinePassed:
        reported = TimedOut(action=question.settings.timeout_action)
    settings = question.settings
    ending = batch_ending(reported, batch, settings, flow.kept(settings))
    print_closing_line(batch, ending, terminal_translation(settings.language))
    return reported


def batch_ending(
    reported: BatchReported,
    batch: BatchRequest,
    settings: InteractionSettings,
    kept: dict[str, Answered],
) -> Ending:
    """How the batch ends: its answer, or a cancel or timeout keeping the answers given so far
    (`kept`) while the rest follows the person's timeout action. Raises `ChoicesError`."""
    if isinstance(reported, BatchSubmission):
        return batch_answer_from(reported, batch, settings)
    if isinstance(reported, Cancelled):
        return reported.model_copy(update={"kept": kept, "rest": settings.timeout_action})
    return reported.model_copy(update={"kept": kept})


class _BatchFlow:
    """The batch on screen: which question is up, and the answers given so far."""

    def __init__(self, batch: BatchRequest, question: LiveQuestion, keep: KeepAnswer) -> None:
        self.batch = batch
        self.question = question
        self.keep = keep
        self.overall = OverallNote()
        count = len(batch.questions)
        self.states = [
            QuestionState(
                item.request,
                question,
                overall=self.overall,
                place=Place(item.id, index, count, item.header),
            )
            for index, item in enumerate(batch.questions)
        ]
        self.drafts: dict[str, Submission] = {}

    def kept(self, settings: InteractionSettings) -> dict[str, Answered]:
        """The answers given so far that are answers (`kept_answer`), by question id."""
        kept = {
            item.id: kept_answer(self.drafts[item.id], item.request, settings)
            for item in self.batch.questions
            if item.id in self.drafts
        }
        return {question_id: answer for question_id, answer in kept.items() if answer is not None}

    async def ask(self) -> BatchSubmission | Cancelled:
        count = len(self.states)
        names = " · ".join(item.name for item in self.batch.questions)

        def about(translation: Translation) -> str:
            return translation.ngettext(
                "{count} question: {names}", "{count} questions: {names}", count, names=names
            )

        frame = BatchFrame(self.batch.title, about, self.question, self.overall)
        if not await SettingsEditor(Screen(frame), self.question, self.batch).accept():
            return Cancelled()
        self.overall.offered = overall_note_offered(self.batch, self.question.settings)
        index: int | None = 0
        while index is not None:
            index = await self._answer(index) if index < count else await self._review()
        return BatchSubmission(answers=self.drafts, global_annotation=self.overall.text or None)

    async def _review(self) -> int | None:
        """The review: None when the person sends the answers (a batch of one sends at once),
        else the index of the question to change."""
        count = len(self.states)
        if count == 1:
            return None

        def about(translation: Translation) -> str:
            return translation.ngettext(
                "Your answer to the {count} question",
                "Your answers to the {count} questions",
                count,
            )

        frame = BatchFrame(self.batch.title, about, self.question, self.overall, can_go_back=True)
        try:
            return await review(frame, self.states, self.drafts)
        except WentBack:
            return count - 1

    async def _answer(self, index: int) -> int:
        """Ask question `index`; the index of the screen that comes next (`len`: the review)."""
        state = self.states[index]
        assert state.place is not None
        question_id = state.place.question_id
        try:
            answer = await answer_question(state, self.drafts.get(question_id))
        except WentBack:
            return index - 1
        self.drafts[question_id] = answer
        await self.keep(question_id, answer)
        if len(self.drafts) == len(self.states):
            return len(self.states)  # every question answered: back to the review
        return index + 1
