"""The question view's state: what the page and the app show of one question, and every change
the person makes to it there.

The person's draft (choices, text, notes), their settings and the options they hid live here, on the
server, so closing the tab loses nothing: reopening the page (or the view) shows the same question.
Every change arrives as plain data, whatever carries it (the page's WebSocket or HTTP fallback, the
app's tool), and is validated before it is kept; the answer itself is what the person did, and
`_contract._meaning` says what it means, as for every transport. Nothing here imports FastAPI or
the MCP SDK: the carriers carry the messages, this module decides what they mean."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import suppress
from typing import Any, Literal

from present_choices import ChoicesError, render_markdown
from present_choices._schema import quote
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._batch_meaning import (
    kept_answer,
    overall_note_offered,
    read_batch_reported,
)
from provide_choice._contract._batch_response import summarize_batch
from provide_choice._contract._meaning import placeholder_rule, read_reported
from provide_choice._contract._presentation import (
    choose_text,
    count_refusal,
    hiding_problem,
    notes_offered,
    shown_placeholder,
    submits_on_selection,
)
from provide_choice._contract._request import (
    ProvideChoiceRequest,
)
from provide_choice._contract._response import (
    Answered,
    BatchAnswered,
    Cancelled,
    Ending,
    TimedOut,
    id_problems,
    summarize,
)
from provide_choice._contract._settings import (
    ALERT_CHANNELS,
    ALERTS_LABEL,
    NUMBER_SETTINGS,
    TIME_SETTINGS,
    InteractionSettings,
    setting_choices,
    shown_settings,
)
from provide_choice._history._inbox_link import InboxLink
from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._question_view._drafts import (
    NOTE_LIMIT,
    TEXT_LIMIT,
    BatchDraft,
    Draft,
    Visibility,
    submission_of,
    validated,
)

HowItEnded = Literal["answered", "cancelled", "cancelled_by_agent", "timeout"]


def setting_fields() -> dict[str, dict[str, Any]]:
    """The settings panel's labels, values and rules, from the one source every surface uses."""
    return (
        {
            name: {"label": label, "choices": [[value, text] for value, text in choices]}
            for name, (label, choices) in setting_choices().items()
        }
        | {
            name: {"label": label, "range": list(limits), "rule": rule, "optional": optional}
            for name, (label, limits, rule, optional) in NUMBER_SETTINGS.items()
        }
        | {name: {"label": label, "time": True} for name, (label, _rule) in TIME_SETTINGS.items()}
        | {
            "alerts": {
                "label": ALERTS_LABEL,
                "channels": [list(item) for item in ALERT_CHANNELS.items()],
            }
        }
    )


INBOX_LINK = InboxLink()
"""Where the inbox runs, for the link back to it on every page."""


class QuestionEnded(Exception):
    """The question already ended (answered, cancelled or timed out): nothing can change it now."""


class QuestionPage:
    """The page of one pending question. Create through `QuestionPages.open`."""

    def __init__(self, question: PendingQuestion) -> None:
        self.question = question
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
        question.on_finish(lambda _question: self._notify())

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
        match self.question.outcome:
            case None:
                return None
            case Answered() | BatchAnswered():
                return "answered"
            case Cancelled(by="agent"):
                return "cancelled_by_agent"
            case Cancelled():
                return "cancelled"
            case TimedOut():
                return "timeout"
        raise AssertionError(f"a web question cannot end with {self.question.outcome!r}")

    def state(self) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data. Time is sent as seconds left, never as a
        clock time: the browser's clock and the server's monotonic clock have nothing in common.
        A batch's state holds each question's own part in `questions`; a single question's part
        is at the top."""
        settings, asked = self.settings, self.question.interaction.asked
        outcome = self.question.outcome
        common = {
            "status": self.ending or "pending",
            "seconds_left": round(self.question.seconds_left(), 1),
            "summary": None if outcome is None else self._summary(outcome),
            "text_limit": TEXT_LIMIT,
            "note_limit": NOTE_LIMIT,
            "requested_timeout_seconds": asked.timeout_seconds,
            "settings": shown_settings(settings),
            "setting_choices": setting_fields(),
            "draft": self.draft.model_dump(),
            "inbox_url": INBOX_LINK.url(),
        }
        if self.batch is None:
            request = self.request
            one = _question_state(
                request, settings, self.hidden_ids, submits_on_selection(request, settings)
            )
            return common | one | {"prefix": "", "notes_allowed": request.allow_annotations}
        items = self.batch.questions
        # Choosing sends the answer only when choosing is the whole of it: one question.
        alone = len(items) == 1
        questions = [
            {
                "id": item.id,
                "header": item.header,
                "name": item.name,
                "prompt_html": render_markdown(item.request.prompt),
                "prefix": f"q{number}-",
            }
            | _question_state(
                item.request,
                settings,
                frozenset(),
                alone and submits_on_selection(item.request, settings),
            )
            for number, item in enumerate(items, start=1)
        ]
        return common | {
            "questions": questions,
            "mode": items[0].request.selection_mode if alone else "batch",
            "options": [],
            "hidden_ids": [],
            "notes": overall_note_offered(self.batch, settings),
            "notes_allowed": self.batch.allow_annotations,
            "has_placeholder": any(item.request.placeholder is not None for item in items),
        }

    def _summary(self, outcome: Ending) -> str:
        if self.batch is None:
            return summarize(self.request, outcome)
        return summarize_batch(self.batch, outcome)

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
        for item in batch.questions:
            submission = submission_of(draft.answers[item.id], item.request, self.settings)
            answer = kept_answer(submission, item.request, self.settings)
            self.question.keep(item.id, answer if item.id in self._touched else None)

    async def change_settings(self, data: object) -> None:
        """Apply the settings the person changed, through the question (`apply_settings`): it
        checks them, follows them now, and saves only them for later questions everywhere."""
        self._refuse_when_ended()
        await self.question.apply_settings(data)
        self._notify()

    def hide_options(self, data: object) -> None:
        """Hide options from this question; a hidden option is no longer chosen."""
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
        if not problems and (problem := hiding_problem(self.request, len(set(hidden)))):
            problems.append(problem)
        if problems:
            raise ChoicesError(problems)
        self.hidden_ids = frozenset(hidden)
        kept = [
            option_id for option_id in self.draft.selected_ids if option_id not in self.hidden_ids
        ]
        self.draft = self.draft.model_copy(update={"selected_ids": kept})
        self._notify()

    def answer(self, data: object) -> None:
        """End the question with the person's answer or cancel. Raises `ChoicesError` with every
        reason the answer is refused (the question stays pending), `QuestionEnded` when too late."""
        self._refuse_when_ended()
        outcome: Ending = (
            read_reported(data, self.request, self.settings)
            if self.batch is None
            else read_batch_reported(data, self.batch, self.settings)
        )
        problems = self._offered_problems(outcome)
        if problems:
            raise ChoicesError(problems)
        if not self.question.finish(outcome):
            raise QuestionEnded

    async def updates(self, every_seconds: float) -> AsyncIterator[dict[str, Any]]:
        """The state now, then after every change and at least every `every_seconds` (so the
        countdown stays in step with the server), ending with the state that says how it ended."""
        while True:
            changed = self._changed
            state = self.state()
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

    def prompt_html(self) -> str:
        """The prompt under the title, rendered as safe markdown; a batch's says how many
        questions follow (each group holds its own prompt)."""
        asked = self.question.interaction.asked
        if isinstance(asked, ProvideChoiceRequest):
            return render_markdown(asked.prompt)
        return f"<p>{len(asked.questions)} questions: answer each, then submit them together.</p>"

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


ENDED = "this question has already ended"
HANDLERS: dict[str, Callable[[QuestionPage, object], Awaitable[None] | None]] = {
    "draft": QuestionPage.save_draft,
    "settings": QuestionPage.change_settings,
    "visibility": QuestionPage.hide_options,
    "answer": QuestionPage.answer,
}
"""What each message a question's view sends does, whatever carries it (the page's HTTP and
WebSocket, the provide_choice app's tool)."""


async def apply(page: QuestionPage, kind: str, data: object) -> tuple[int, dict[str, Any]]:
    """Run one message against the page: the status (as HTTP says it) and the reply body. A
    change of settings is awaited: the question saves it off the event loop."""
    try:
        handled = HANDLERS[kind](page, data)
        if handled is not None:
            await handled
    except ChoicesError as error:
        return 422, {"problems": error.problems}
    except QuestionEnded:
        return 409, {"problems": [ENDED], "state": page.state()}
    return 200, {"state": page.state()}


class QuestionPages:
    """The pages of the questions asked in the browser. A page lives as long as its question is in
    the registry, so an ended question still shows how it ended for a while, and memory stays as
    bounded as the registry's."""

    def __init__(self, registry: QuestionRegistry) -> None:
        self.registry = registry
        self._pages: dict[str, QuestionPage] = {}

    def open(self, question: PendingQuestion) -> QuestionPage:
        for question_id in [key for key in self._pages if self.registry.get(key) is None]:
            del self._pages[question_id]
        page = self._pages[question.id] = QuestionPage(question)
        return page

    def get(self, question_id: str) -> QuestionPage | None:
        page = self._pages.get(question_id)
        if page is not None and self.registry.get(question_id) is not page.question:
            del self._pages[question_id]
            return None
        return page


def _question_state(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    hidden_ids: frozenset[str],
    submits: bool,
) -> dict[str, Any]:
    """One question's part of the page's state: its options (previews rendered by the one
    markdown renderer), its rules, and what choosing does (`submits`: sends the answer)."""
    return {
        "mode": request.selection_mode,
        "options": [
            option.model_dump(include={"label", "description", "recommended"})
            | {
                "id": option.id,
                "preview_html": None if option.preview is None else render_markdown(option.preview),
            }
            for option in request.options or ()
        ],
        "hidden_ids": [option_id for option_id in request.option_ids if option_id in hidden_ids],
        "limits": request.limits._asdict(),
        "instruction": _instruction(request, settings, submits),
        "refusals": {
            "options_only": _refusals(request, own_answer=False),
            "with_own_answer": _refusals(request, own_answer=True),
        },
        "placeholder": shown_placeholder(request, settings),
        "placeholder_rule": placeholder_rule(request, settings),
        "has_placeholder": request.placeholder is not None,
        "notes": notes_offered(request, settings),
        "submits_on_selection": submits,
    }


def _instruction(
    request: ProvideChoiceRequest, settings: InteractionSettings, submits: bool
) -> str:
    """The line above the options: how many to choose, and what choosing does."""
    if submits:
        return f"{choose_text(request, settings)}: choosing an option sends your answer."
    return f"{choose_text(request, settings)}."


def _refusals(request: ProvideChoiceRequest, own_answer: bool) -> list[str | None]:
    """Why an answer holding 0, 1, 2... options cannot be sent, with or without an own answer
    (None: it can): the count rule and its words, the server's, for the script to look up."""
    return [
        count_refusal(request, own_answer, chosen)
        for chosen in range(len(request.options or ()) + 1)
    ]
