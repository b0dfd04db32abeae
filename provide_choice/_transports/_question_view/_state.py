"""The question view's state: what the page and the app show of one question, and every change
the person makes to it there.

The person's draft (choices, text, notes), their settings and the options they hid live here, on the
server, so closing the tab loses nothing: reopening the page (or the view) shows the same question.
Every change arrives as plain data, whatever carries it (the page's WebSocket or HTTP fallback, the
app's tool), and is validated before it is kept; the answer itself is what the person did, and
`_contract._meaning` says what it means, as for every transport. Nothing here imports Starlette or
the MCP SDK: the carriers carry the messages, this module decides what they mean.

A state is in the person's language: their setting `language`, else the surface's `signal` (the
browser's languages, the host's locale), best first; it names the language it is in, and the
view's script speaks it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import suppress
from typing import Any

from present_choices import ChoicesError
from present_choices._schema import quote
from present_choices._translation import ENGLISH, Translation, chosen
from provide_choice._contract._answer_checks import id_problems
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._batch_meaning import (
    kept_answer,
    read_batch_reported,
)
from provide_choice._contract._meaning import read_reported
from provide_choice._contract._outcomes import (
    Answered,
    Ending,
    TimedOut,
)
from provide_choice._contract._presentation import (
    hiding_problem,
)
from provide_choice._contract._request import (
    ProvideChoiceRequest,
)
from provide_choice._contract._settings import InteractionSettings
from provide_choice._history._inbox_link import InboxLink
from provide_choice._question import PendingQuestion
from provide_choice._transports._question_view._drafts import (
    BatchDraft,
    Draft,
    Visibility,
    submission_of,
    validated,
)
from provide_choice._transports._question_view._shown import HowItEnded, how_it_ended, page_state

INBOX_LINK = InboxLink()
"""Where the inbox runs, for the link back to it on every page."""


class QuestionEnded(Exception):
    """The question already ended (answered, cancelled or timed out): nothing can change it now."""


class QuestionPage:
    """The page of one pending question. Create through `QuestionPages.open`. `inbox` finds the
    inbox to link back to; None for a page seen elsewhere than on this machine."""

    def __init__(self, question: PendingQuestion, inbox: InboxLink | None = INBOX_LINK) -> None:
        self.question = question
        self.inbox = inbox
        self.batch = question.interaction.batch
        self.draft: Draft | BatchDraft = (
            Draft(selected_ids=list(self.request.default_selection_ids))
            if self.batch is None
            else BatchDraft(
                answers={
                    item.id: Draft(selected_ids=list(item.request.default_selection_ids))
                    for item in self.batch.questions
                }
            )
        )
        self.hidden_ids: frozenset[str] = frozenset()
        self._touched: set[str] = set()
        """The batch's questions whose draft the person changed."""
        self._changed = asyncio.Event()
        self._recall()
        question.on_finish(lambda _question: self._notify())
        question.on_change(lambda _question: self._recall_and_notify())

    def _remember(self) -> None:
        """Keep the draft, the hidden options and the touched questions with the question, where
        every page of it finds them (on another instance too)."""
        self.question.remember(
            {
                "draft": self.draft.model_dump(),
                "hidden_ids": sorted(self.hidden_ids),
                "touched": sorted(self._touched),
            }
        )

    def _recall(self) -> None:
        """What a page of the question kept, when one did (here, or on another instance)."""
        view = self.question.view
        if not view:
            return
        try:
            self.draft = (
                validated(Draft, view["draft"])
                if self.batch is None
                else validated(BatchDraft, view["draft"])
            )
            self.hidden_ids = frozenset(view["hidden_ids"])
            self._touched = set(view["touched"])
        except (ChoicesError, KeyError, TypeError):
            return  # not a page's: the page starts afresh

    def _recall_and_notify(self) -> None:
        self._recall()
        self._notify()

    @property
    def request(self) -> ProvideChoiceRequest:
        return self.question.interaction.request

    @property
    def settings(self) -> InteractionSettings:
        """The question's settings in force: the page keeps no copy of its own."""
        return self.question.settings

    @property
    def ending(self) -> HowItEnded | None:
        """How the question ended, as the page words it; None while it is pending."""
        return how_it_ended(self.question.outcome)

    def translation(self, signal: Sequence[str] = ()) -> Translation:
        """The language the page speaks: the person's setting, else the surface's `signal`."""
        return chosen(self.settings.language, signal)

    def state(self, signal: Sequence[str] = ()) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data, in the person's language (`signal`: the
        surface's languages, best first; `_shown.page_state`)."""
        return page_state(self, self.translation(signal))

    def save_draft(self, data: object) -> None:
        """Keep what the person has chosen and typed so far, so a reopened tab shows it."""
        self._refuse_when_ended()
        self.question.touch()
        if self.batch is not None:
            self._save_batch_draft(self.batch, validated(BatchDraft, data))
            return
        draft = validated(Draft, data)
        problems = id_problems(self.request, draft.selected_ids, draft.option_annotations)
        if problems:
            raise ChoicesError(problems)
        self.draft = draft
        self._remember()

    def _save_batch_draft(self, batch: BatchRequest, draft: BatchDraft) -> None:
        """Keep a batch's draft, and tell the question which of its questions are answered so
        far: those answers are kept if the batch is cancelled or times out half-way."""
        problems = [
            f"{question_id}: is not a question of this batch"
            for question_id in draft.answers
            if batch.question(question_id) is None
        ]
        for item in batch.questions:
            one = draft.answers.get(item.id)
            if one is None:
                problems.append(f"{item.id}: its draft is missing")
                continue
            problems += [
                f"{item.id}: {problem}"
                for problem in id_problems(item.request, one.selected_ids, one.option_annotations)
            ]
        if problems:
            raise ChoicesError(problems)
        assert isinstance(self.draft, BatchDraft)
        # A question counts as answered once the person changed its draft: a default they never
        # touched is not their answer (it returns as the timeout action says).
        self._touched |= {
            item.id
            for item in batch.questions
            if draft.answers[item.id] != self.draft.answers[item.id]
        }
        self.draft = draft
        self._remember()
        for item in batch.questions:
            submission = submission_of(draft.answers[item.id], item.request, self.settings)
            answer = kept_answer(submission, item.request, self.settings)
            self.question.keep(item.id, answer if item.id in self._touched else None)

    async def change_settings(self, data: object) -> None:
        """Apply the settings the person changed, through the question (`apply_settings`): it
        checks them, follows them now (every page of it hears, this one too), and saves only them
        for later questions everywhere."""
        self._refuse_when_ended()
        await self.question.apply_settings(data)

    def hide_options(self, data: object, translation: Translation = ENGLISH) -> None:
        """Hide options from this question; a hidden option is no longer chosen. A refusal the
        person reads is in their language."""
        self._refuse_when_ended()
        self.question.touch()
        if not isinstance(self.draft, Draft):
            raise ChoicesError(["the options of a batch's questions cannot be hidden"])
        hidden = validated(Visibility, data).hidden_ids
        ids = self.request.option_ids
        problems = [
            f"hidden_ids: {quote(option_id)} is not an option id"
            for option_id in hidden
            if option_id not in ids
        ]
        hiding = hiding_problem(self.request, len(set(hidden)), translation)
        if not problems and (problem := hiding):
            problems.append(problem)
        if problems:
            raise ChoicesError(problems)
        self.hidden_ids = frozenset(hidden)
        kept = [
            option_id for option_id in self.draft.selected_ids if option_id not in self.hidden_ids
        ]
        self.draft = self.draft.model_copy(update={"selected_ids": kept})
        self._remember()
        self._notify()

    async def answer(self, data: object) -> None:
        """End the question with the person's answer or cancel. Raises `ChoicesError` with every
        reason the answer is refused (the question stays pending), `QuestionEnded` when too late
        (another answer came first, maybe through another instance), `StoreUnavailable` when the
        shared store is away (nothing sent: the person sends it again)."""
        self._refuse_when_ended()
        outcome: Ending = (
            read_reported(data, self.request, self.settings)
            if self.batch is None
            else read_batch_reported(data, self.batch, self.settings)
        )
        problems = self._offered_problems(outcome)
        if problems:
            raise ChoicesError(problems)
        if not await self.question.settle(outcome):
            raise QuestionEnded

    async def updates(
        self, every_seconds: float, signal: Sequence[str] = ()
    ) -> AsyncIterator[dict[str, Any]]:
        """The state now, then after every change and at least every `every_seconds` (so the
        countdown stays in step with the server), ending with the state that says how it ended."""
        while True:
            changed = self._changed
            state = self.state(signal)
            yield state
            if state["status"] != "pending":
                return
            with suppress(TimeoutError):
                async with asyncio.timeout(every_seconds):
                    await changed.wait()

    @property
    def title(self) -> str:
        """The title of the question, or of the batch."""
        return self.question.interaction.asked.title

    def _offered_problems(self, outcome: Ending) -> list[str]:
        """What this page did not offer, beyond what the question allows: options the person hid,
        and an ending only the server decides (the deadline)."""
        if isinstance(outcome, TimedOut):
            return [f"kind must be 'answered' or 'cancelled', got {quote(outcome.kind)}"]
        if not isinstance(outcome, Answered):
            return []
        return [
            f"selected_ids: {quote(option_id)} is hidden"
            for option_id in outcome.selected_ids
            if option_id in self.hidden_ids
        ]

    def _refuse_when_ended(self) -> None:
        if self.question.outcome is not None:
            raise QuestionEnded

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()
