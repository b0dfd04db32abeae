"""What the question view shows of one question: its state as JSON-ready data, built fresh for
every message to the page (the page's script and the app's view draw from it alone), in the
person's language, from the one source of each rule (`_contract`).

It reads a page through `ShownPage` (`_state.QuestionPage` is one), which `_state` imports, never
the other way round; what it shows of the question itself (how it ended, its summary line, its
prompt) is said here, from the question."""

from __future__ import annotations

import html
from typing import Any, Literal, Protocol

from present_choices import render_markdown
from present_choices._translation import Translation
from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._batch_meaning import overall_note_offered
from provide_choice._contract._batch_response import summarize_batch
from provide_choice._contract._meaning import placeholder_rule
from provide_choice._contract._outcomes import (
    Answered,
    BatchAnswered,
    Cancelled,
    Ending,
    TimedOut,
)
from provide_choice._contract._presentation import (
    choose_text,
    count_refusal,
    notes_offered,
    shown_placeholder,
    submits_on_selection,
)
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._response import summarize
from provide_choice._contract._setting_changes import shown_settings
from provide_choice._contract._setting_labels import (
    ALERTS_LABEL,
    alert_channels,
    number_settings,
    setting_choices,
    time_settings,
)
from provide_choice._contract._settings import InteractionSettings
from provide_choice._history._inbox_link import InboxLink
from provide_choice._question import PendingQuestion
from provide_choice._transports._question_view._drafts import (
    NOTE_LIMIT,
    TEXT_LIMIT,
    BatchDraft,
    Draft,
)

HowItEnded = Literal["answered", "cancelled", "cancelled_by_agent", "timeout"]


class ShownPage(Protocol):
    """A page of the question view as its state is drawn from it: the question, what the person
    chose and hid there so far, and the inbox it links back to (None: none)."""

    @property
    def question(self) -> PendingQuestion: ...

    @property
    def draft(self) -> Draft | BatchDraft: ...

    @property
    def hidden_ids(self) -> frozenset[str]: ...

    @property
    def inbox(self) -> InboxLink | None: ...


def how_it_ended(outcome: Ending | None) -> HowItEnded | None:
    """How the question ended, as the page words it; None while it is pending."""
    match outcome:
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
    raise AssertionError(f"a web question cannot end with {outcome!r}")


def summary(asked: Asked, outcome: Ending) -> str:
    """The one line the page shows once the question ended."""
    if isinstance(asked, BatchRequest):
        return summarize_batch(asked, outcome)
    return summarize(asked, outcome)


def prompt_html(asked: Asked, translation: Translation) -> str:
    """The prompt under the title, rendered as safe markdown; a batch's says how many questions
    follow (each group holds its own prompt), in `translation`."""
    if isinstance(asked, ProvideChoiceRequest):
        return render_markdown(asked.prompt)
    intro = translation.ngettext(
        "{count} question: answer it, then submit it.",
        "{count} questions: answer each, then submit them together.",
        len(asked.questions),
    )
    return f"<p>{html.escape(intro)}</p>"


def setting_fields(
    translation: Translation, settings: InteractionSettings
) -> dict[str, dict[str, Any]]:
    """The settings panel's labels, values and rules, from the one source every surface uses (a
    language the settings file names without a catalog is offered as itself, so it shows)."""
    fields: dict[str, dict[str, Any]] = {
        name: {"label": label, "choices": [[value, text] for value, text in choices]}
        for name, (label, choices) in setting_choices(translation).items()
    }
    if all(value != settings.language for value, _text in fields["language"]["choices"]):
        fields["language"]["choices"].append([settings.language, settings.language])
    numbers = {
        name: {"label": label, "range": list(limits), "rule": rule, "optional": optional}
        for name, (label, limits, rule, optional) in number_settings(translation).items()
    }
    times = {
        name: {"label": label, "time": True}
        for name, (label, _rule) in time_settings(translation).items()
    }
    channels = [
        [channel, translation.gettext(label)] for channel, label in alert_channels().items()
    ]
    alerts = {"label": translation.gettext(ALERTS_LABEL), "channels": channels}
    return fields | numbers | times | {"alerts": alerts}


def page_state(page: ShownPage, translation: Translation) -> dict[str, Any]:
    """Everything the page shows. Time is sent as seconds left, never as a clock time: the
    browser's clock and the server's monotonic clock have nothing in common. A batch's state
    holds each question's own part in `questions`; a single question's part is at the top. The
    store's problem, while a shared store is away, is said on the page. It names the language it
    is in (`translation`), which the view's script speaks."""
    question = page.question
    settings, asked, outcome = question.settings, question.interaction.asked, question.outcome
    common = {
        "language": translation.tag,
        "status": how_it_ended(outcome) or "pending",
        "seconds_left": round(question.seconds_left(), 1),
        "summary": None if outcome is None else summary(asked, outcome),
        "text_limit": TEXT_LIMIT,
        "note_limit": NOTE_LIMIT,
        "requested_timeout_seconds": asked.timeout_seconds,
        "settings": shown_settings(settings),
        "setting_choices": setting_fields(translation, settings),
        "draft": page.draft.model_dump(),
        "inbox_url": None if page.inbox is None else page.inbox.url(),
        "store_problem": question.store_problem,
    }
    if not isinstance(asked, BatchRequest):
        request = asked
        submits = submits_on_selection(request, settings)
        one = question_part(request, settings, page.hidden_ids, submits, translation)
        return common | one | {"prefix": "", "notes_allowed": request.allow_annotations}
    items = asked.questions
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
        | question_part(
            item.request,
            settings,
            frozenset(),
            alone and submits_on_selection(item.request, settings),
            translation,
        )
        for number, item in enumerate(items, start=1)
    ]
    return common | {
        "questions": questions,
        "mode": items[0].request.selection_mode if alone else "batch",
        "options": [],
        "hidden_ids": [],
        "notes": overall_note_offered(asked, settings),
        "notes_allowed": asked.allow_annotations,
        "has_placeholder": any(item.request.placeholder is not None for item in items),
        "intro_html": prompt_html(asked, translation),
    }


def question_part(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    hidden_ids: frozenset[str],
    submits: bool,
    translation: Translation,
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
        "instruction": _instruction(request, settings, submits, translation),
        "refusals": {
            "options_only": _refusals(request, False, translation),
            "with_own_answer": _refusals(request, True, translation),
        },
        "placeholder": shown_placeholder(request, settings),
        "placeholder_rule": placeholder_rule(request, settings),
        "has_placeholder": request.placeholder is not None,
        "notes": notes_offered(request, settings),
        "submits_on_selection": submits,
    }


def _instruction(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    submits: bool,
    translation: Translation,
) -> str:
    """The line above the options: how many to choose, and what choosing does (choosing sends
    the answer only where choosing one is the whole answer)."""
    if submits:
        return translation.gettext("Choose one: choosing an option sends your answer.")
    return translation.gettext("{rule}.", rule=choose_text(request, settings, translation))


def _refusals(
    request: ProvideChoiceRequest, own_answer: bool, translation: Translation
) -> list[str | None]:
    """Why an answer holding 0, 1, 2... options cannot be sent, with or without an own answer
    (None: it can): the count rule and its words, the server's, for the script to look up."""
    return [
        count_refusal(request, own_answer, count, translation)
        for count in range(len(request.options or ()) + 1)
    ]
