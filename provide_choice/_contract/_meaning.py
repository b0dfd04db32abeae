"""What an answer means: the one place that turns what the person did into the answer.

Every surface (the page, the server's terminal, the hand-off terminal, the client's dialog) reports
the same raw facts, a `Submission`: what was chosen, what was typed, whether the text field was
left empty while the placeholder was shown, the notes. `answer_from` alone decides what that means:

- the placeholder is used when the response's text came from it, that is, the person submitted
  with the text field empty while the placeholder was shown, on a mode that takes text
  (`text_input`; `hybrid` with no option chosen). Text typed equal to the placeholder is the
  person's own;
- in hybrid mode an own answer (typed, or the placeholder) waives the minimum of options
  (`_request.limits_for`, beside the request's own limits, which the answer's check applies);
- the answer must fit the request and what the surface offered (`check_submission`).

The page's script gets these rules as data in its state (`placeholder_rule`, the limits), so no
rule is written twice.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from present_choices import ChoicesError
from provide_choice._contract._answer_checks import outcome_problems
from provide_choice._contract._outcomes import Answered, Cancelled, Ending, TimedOut
from provide_choice._contract._presentation import notes_offered, shown_placeholder
from provide_choice._contract._request import ProvideChoiceRequest, describe
from provide_choice._contract._settings import InteractionSettings

VIA_IS_THE_SERVERS = "via is the server's to set: leave it out"
"""Only the server says an ending came through another surface (`Answered.via`)."""
PERSON_IS_THE_SERVERS = "person is the server's to set: leave it out"
"""Only the server says who answered through a surface many may answer on (`Answered.person`)."""

PlaceholderRule = Literal["always", "when_nothing_chosen"]
"""When an empty text field sends the shown placeholder: in text_input always, in hybrid only
when no option is chosen."""


class Submission(BaseModel):
    """What the person did when they submitted, as a surface saw it; not yet what it means."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["answered"] = "answered"
    selected_ids: list[str] = Field(default_factory=list)
    custom_input: str | None = None
    """The text the person typed, as typed; None or blank: the field was left empty."""
    placeholder_shown: bool = False
    """The text field was left empty while it showed the placeholder. The client's dialog, which
    pre-fills the placeholder and cannot tell it from typed text, reports an unchanged default so."""
    option_annotations: dict[str, str] = Field(default_factory=dict)
    global_annotation: str | None = None


Reported = Annotated[Submission | Cancelled | TimedOut, Field(discriminator="kind")]
"""What a surface reports: the person submitted, or cancelled, or it saw the deadline pass."""
ON_FIRST_USE = ConfigDict(defer_build=True)
"""An adapter's own config: its validator is built when it first validates or dumps, not when the
module is imported (before pydantic 2.10, at once, as before)."""
REPORTED_ADAPTER: TypeAdapter[Submission | Cancelled | TimedOut] = TypeAdapter(
    Reported, config=ON_FIRST_USE
)
ENDING_ADAPTER: TypeAdapter[Ending] = TypeAdapter(Ending, config=ON_FIRST_USE)


def placeholder_rule(
    request: ProvideChoiceRequest, settings: InteractionSettings
) -> PlaceholderRule | None:
    """When an empty text field stands for the placeholder; None when no placeholder is shown
    (there is none, it is hidden, or the mode takes no text)."""
    if shown_placeholder(request, settings) is None:
        return None
    if request.selection_mode == "text_input":
        return "always"
    return "when_nothing_chosen" if request.selection_mode == "hybrid" else None


def meaning(
    submission: Submission, request: ProvideChoiceRequest, settings: InteractionSettings
) -> Answered:
    """What the submission means, unchecked: the typed text, else the placeholder where the rule
    says an empty field sends it. `answer_from` checks it too."""
    typed = (submission.custom_input or "").strip() or None
    rule = placeholder_rule(request, settings)
    from_placeholder = (
        typed is None
        and submission.placeholder_shown
        and (rule == "always" or (rule == "when_nothing_chosen" and not submission.selected_ids))
    )
    return Answered(
        selected_ids=submission.selected_ids,
        custom_input=shown_placeholder(request, settings) if from_placeholder else typed,
        option_annotations=submission.option_annotations,
        global_annotation=submission.global_annotation,
        placeholder_used=from_placeholder,
    )


def check_submission(
    submission: Submission, request: ProvideChoiceRequest, settings: InteractionSettings
) -> list[str]:
    """Every reason this submission is not an answer to this question as the person sees it."""
    problems = outcome_problems(request, meaning(submission, request, settings))
    if submission.placeholder_shown and shown_placeholder(request, settings) is None:
        problems.append("placeholder_shown is true but the suggested answer is hidden")
    noted = bool(submission.option_annotations or submission.global_annotation)
    if noted and request.allow_annotations and not notes_offered(request, settings):
        problems.append("notes are switched off in the settings")
    return problems


def answer_from(
    submission: Submission, request: ProvideChoiceRequest, settings: InteractionSettings
) -> Answered:
    """The answer the submission gives. Raises `ChoicesError` listing every problem."""
    problems = check_submission(submission, request, settings)
    if problems:
        raise ChoicesError(problems)
    return meaning(submission, request, settings)


def read_reported(
    data: object, request: ProvideChoiceRequest, settings: InteractionSettings
) -> Ending:
    """How a posted report ends the question: the answer its submission gives, the person's
    cancel, the deadline. Raises `ChoicesError` listing every problem (the bridge answers 422)."""
    try:
        reported = REPORTED_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise ChoicesError(describe(error)) from None
    return ending_of(reported, request, settings)


def ending_of(
    reported: Submission | Cancelled | TimedOut,
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
) -> Ending:
    """How a report ends the question. Raises `ChoicesError` listing every problem."""
    if isinstance(reported, Submission):
        return answer_from(reported, request, settings)
    problems = cancel_problems(reported) if isinstance(reported, Cancelled) else []
    if problems:
        raise ChoicesError(problems)
    return reported


def validate_outcome(request: ProvideChoiceRequest, data: object) -> Ending:
    """Check a posted ending against the request: types, ids from the options, counts within the
    limits. Raises `ChoicesError` listing every problem (the bridge answers 422 with it)."""
    try:
        outcome = ENDING_ADAPTER.validate_python(data)
    except ValidationError as error:
        raise ChoicesError(describe(error)) from None
    problems = outcome_problems(request, outcome)
    if isinstance(outcome, Cancelled):
        problems += cancel_problems(outcome)
    else:
        problems += _surfaced_problems(outcome)
    if problems:
        raise ChoicesError(problems)
    return outcome


def cancel_problems(cancelled: Cancelled) -> list[str]:
    """Why a posted cancel is not the person's: only the server cancels for the agent, and only
    it says how a client's dialog ended."""
    problems = []
    if cancelled.by != "person":
        problems.append("by must be 'person': only the server cancels for the agent")
    if cancelled.detail is not None:
        problems.append("detail is the server's to set: leave it out")
    if cancelled.kept or cancelled.rest is not None:
        problems.append("kept and rest are the server's to set: leave them out")
    return problems + _surfaced_problems(cancelled)


def _surfaced_problems(outcome: Ending) -> list[str]:
    """Why a posted ending may not say where or by whom it was given: the server says that."""
    problems = []
    if getattr(outcome, "via", None) is not None:
        problems.append(VIA_IS_THE_SERVERS)
    if getattr(outcome, "person", None) is not None:
        problems.append(PERSON_IS_THE_SERVERS)
    return problems
