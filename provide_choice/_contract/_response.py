"""What comes back: the one response shape every transport returns, built from an outcome.

A call replies with a `Reply` (`_outcomes`: how the question ended, or what the agent must do to get
that). `normalize()` is the only place that turns one into a `ProvideChoiceResponse`, after the
checks of `_answer_checks`, so option order, limits, notes and the summary line read the same
whether the person answered in a terminal, a browser or elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from present_choices import ChoicesError
from provide_choice._contract._answer_checks import BATCH_ANSWER_TO_ONE, outcome_problems
from provide_choice._contract._outcomes import (
    Answered,
    BatchAnswered,
    Cancelled,
    NobodyAsked,
    PendingLaunch,
    Reply,
    StillOpen,
    TimedOut,
)
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._settings import TimeoutAction
from provide_choice._contract._transport_table import TransportName

ActionStatus = Literal[
    "selected",
    "custom_input",
    "cancelled",
    "timeout",
    "pending_terminal_launch",
    "pending",
    "unattended",
]
AnsweredBy = Literal["person", "answers_file", "nobody"]
"""Who answered: the person, a rule of the answers file, or nobody (the server runs unattended,
the person is away, the deadline passed, or nobody has answered yet)."""
SUMMARY_TEXT_LENGTH = 80


class Selection(BaseModel):
    """The answer itself, identical in shape for every transport."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    selected_ids: list[str] = Field(
        description="Chosen option ids, in the order the options were given."
    )
    custom_input: str | None = Field(description="The person's own text (text_input, hybrid).")
    option_annotations: dict[str, str] = Field(
        description="Notes by option id, only for options that got one."
    )
    global_annotation: str | None = Field(description="The person's note on the whole question.")
    placeholder_used: bool = Field(
        description="True when the person accepted the placeholder as their text."
    )
    transport: TransportName | None = Field(
        description="Where the person answered; null when the question was shown nowhere "
        "(answered_by answers_file, or unattended)."
    )
    session_id: str | None = Field(
        description="With pending and pending_terminal_launch: the session to wait on with "
        "provide_choice(session_id=...)."
    )
    url: str | None = Field(
        description="Address of the web page or hand-off session showing the question, when "
        "there is one (also after it ended)."
    )
    summary: str = Field(description="One human-readable line describing the outcome.")


class QuestionAnswer(BaseModel):
    """The answer to one question of a batch, in `answers`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="The question's id, as the request gave it.")
    selected_ids: list[str] = Field(
        description="Chosen option ids, in the order the options were given."
    )
    custom_input: str | None = Field(description="The person's own text (text_input, hybrid).")
    option_annotations: dict[str, str] = Field(
        description="Notes by option id, only for options that got one."
    )
    placeholder_used: bool = Field(
        description="True when the person accepted the placeholder as their text."
    )


class ProvideChoiceResponse(BaseModel):
    """The `provide_choice` tool result (its structured content, and the same JSON as its text).

    `answers` is a batch's only: a single question's response has no such field at all."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action_status: ActionStatus
    answered_by: AnsweredBy = Field(
        description="Who answered: person, answers_file (a rule written in advance) or nobody "
        "(unattended, away, a timeout, or not answered yet)."
    )
    selection: Selection
    answers: list[QuestionAnswer] | None = Field(
        default=None,
        description="A batch (questions): the answer to each question, in question order.",
        exclude_if=lambda answers: answers is None,
    )


def normalize(
    request: ProvideChoiceRequest,
    outcome: Reply,
    transport: TransportName | None,
    *,
    url: str | None = None,
    note: str | None = None,
) -> ProvideChoiceResponse:
    """The one way to build a response. Raises `ChoicesError` for an outcome the request forbids,
    so no transport can return ids that are not options or counts outside the limits. `url` is
    where the question is shown (a page, a hand-off session), for every outcome: a client that hides
    the server's stderr and asks for no progress still learns it. `note` ends the summary (where
    the question was asked instead of where the agent asked for it), except a command to run."""
    problems = outcome_problems(request, outcome)
    if problems:
        raise ChoicesError(problems)
    status, session_id, url = status_of(outcome, url)
    selected: list[str] = []
    if isinstance(outcome, Answered):
        selected = _in_option_order(request, outcome.selected_ids)
    elif isinstance(outcome, TimedOut | NobodyAsked) and outcome.action == "return_defaults":
        selected = _in_option_order(request, request.default_selection_ids)
    answered = outcome if isinstance(outcome, Answered) else Answered()
    return ProvideChoiceResponse(
        action_status=status,
        answered_by=answerer(outcome),
        selection=Selection(
            selected_ids=selected,
            custom_input=answered.custom_input,
            option_annotations=_option_notes(request, answered),
            global_annotation=(answered.global_annotation or "").strip() or None,
            placeholder_used=answered.placeholder_used,
            transport=transport,
            session_id=session_id,
            url=url,
            summary=summarize(request, outcome)
            + (f" {note}" if note and not isinstance(outcome, PendingLaunch) else ""),
        ),
    )


def status_of(outcome: Reply, url: str | None) -> tuple[ActionStatus, str | None, str | None]:
    """A reply's `action_status`, the session to wait on (pending ones), and the address shown:
    a hand-off's own, else `url`. The same for a question and for a batch."""
    match outcome:
        case Answered():
            return ("selected" if outcome.custom_input is None else "custom_input"), None, url
        case BatchAnswered():
            return "selected", None, url
        case Cancelled():
            return "cancelled", None, url
        case TimedOut():
            return "timeout", None, url
        case NobodyAsked():
            return "unattended", None, url
        case PendingLaunch():
            return "pending_terminal_launch", outcome.session_id, outcome.url
        case StillOpen():
            return "pending", outcome.session_id, url


def answerer(outcome: Reply) -> AnsweredBy:
    """Who answered: the person when they answered or cancelled; nobody for a deadline, a cancel
    by the agent, or a question still open (the same for a question and for a batch)."""
    if isinstance(outcome, Answered | BatchAnswered):
        return "person"
    if isinstance(outcome, Cancelled) and outcome.by == "person":
        return "person"
    return "nobody"


def summarize(request: ProvideChoiceRequest, outcome: Reply) -> str:
    """One line a person (or an agent's log) can read: what was chosen, or what happened instead."""
    match outcome:
        case Answered():
            return _answer_summary(request, outcome)
        case BatchAnswered():
            return BATCH_ANSWER_TO_ONE
        case Cancelled(by="agent"):
            return "Cancelled by the agent before the person answered; nothing selected."
        case Cancelled(detail=str(detail)):
            return f"{detail}; nothing selected."
        case Cancelled():
            return "Cancelled by the person; nothing selected."
        case TimedOut():
            return "No answer before the deadline; " + unchosen(request, outcome.action)
        case NobodyAsked():
            return f"Nobody was asked: {outcome.reason}; {unchosen(request, outcome.action, 'a person')}"
        case PendingLaunch():
            return outcome.command
        case StillOpen():
            return _still_open(outcome)


def _still_open(outcome: StillOpen) -> str:
    left = "" if outcome.seconds_left is None else f" ({outcome.seconds_left:.0f} s left)"
    problem = "" if outcome.problem is None else f"; {outcome.problem}, and the question is kept"
    return (
        f"Still waiting for the person{left}{problem}; call provide_choice again with only "
        f'{{"session_id": "{outcome.session_id}"}} to keep waiting.'
    )


def unread(outcome: StillOpen) -> ProvideChoiceResponse:
    """The reply to a poll of a question this server cannot read now (the store that keeps it is
    away, and it never held the question itself): still pending, saying why. Nothing of the
    question is known here, so nothing else is said: no address, and the transport of a question
    served to a browser from elsewhere, the page's."""
    return ProvideChoiceResponse(
        action_status="pending",
        answered_by="nobody",
        selection=Selection(
            selected_ids=[],
            custom_input=None,
            option_annotations={},
            global_annotation=None,
            placeholder_used=False,
            transport="web",
            session_id=outcome.session_id,
            url=None,
            summary=_still_open(outcome),
        ),
    )


def unchosen(request: ProvideChoiceRequest, action: TimeoutAction, by: str = "the person") -> str:
    """What a question nobody answered returns, as `action` says, in words that never pass a
    default off as chosen ("defaults returned, not chosen by the person: PostgreSQL.")."""
    defaults = request.labels(request.default_selection_ids)
    if action == "return_nothing":
        return "nothing selected."
    if not defaults:
        return "no defaults to return, nothing selected."
    return f"defaults returned, not chosen by {by}: {', '.join(defaults)}."


def _answer_summary(request: ProvideChoiceRequest, outcome: Answered) -> str:
    labels = request.labels(outcome.selected_ids)
    if outcome.custom_input is not None:
        verb = (
            "Accepted the suggested answer"
            if outcome.placeholder_used
            else "Answered in their own words"
        )
        text = shortened(outcome.custom_input)
        summary = f'{verb}: "{text}"' + (f" (also selected: {', '.join(labels)})" if labels else "")
    elif labels:
        summary = f"Selected: {', '.join(labels)}"
    else:
        summary = "Submitted with nothing selected"
    noted = request.labels(_option_notes(request, outcome))
    notes = [f"notes on {', '.join(noted)}"] if noted else []
    if (outcome.global_annotation or "").strip():
        notes.append("an overall note")
    return summary + (f" (with {' and '.join(notes)})" if notes else "") + "."


def _option_notes(request: ProvideChoiceRequest, outcome: Answered) -> dict[str, str]:
    """Notes that say something, by option id in option order; blank notes are no notes."""
    return {
        option_id: note
        for option_id in request.option_ids
        if (note := outcome.option_annotations.get(option_id, "").strip())
    }


def _in_option_order(request: ProvideChoiceRequest, ids: Iterable[str]) -> list[str]:
    wanted = set(ids)
    return [option_id for option_id in request.option_ids if option_id in wanted]


def shortened(text: str) -> str:  # on one line, cut to SUMMARY_TEXT_LENGTH characters
    line = " ".join(text.split())
    return line if len(line) <= SUMMARY_TEXT_LENGTH else line[: SUMMARY_TEXT_LENGTH - 1] + "…"
