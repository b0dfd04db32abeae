"""What a terminal says as a question ends, in the person's language: the one line it leaves on
screen ("Selected: PostgreSQL.", "已选择：PostgreSQL。"), and a batch's answers read back on its
review screen.

The agent's summary says the same in English for the agent (`_contract._response.summarize`); this
is the person's, said as they read the rest of the screens. In English the two agree word for
word where they can (a test of the agent's summary and of the screen read alike).
"""

from __future__ import annotations

from present_choices._locale_format import format_list
from present_choices._translation import Translation
from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._outcomes import Answered, BatchAnswered, Cancelled, Ending, TimedOut
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._response import shortened
from provide_choice._contract._settings import TimeoutAction


def closing_line(asked: Asked, ending: Ending, translation: Translation) -> str:
    """The line a question (or a batch) leaves in the terminal once it ends."""
    if isinstance(asked, BatchRequest):
        return _batch_line(asked, ending, translation)
    _ = translation
    match ending:
        case Answered():
            return described(asked, ending, translation)
        case Cancelled(by="agent"):
            return _.gettext("Cancelled by the agent before the person answered; nothing selected.")
        case Cancelled():
            return _.gettext("Cancelled by the person; nothing selected.")
        case TimedOut():
            return _unanswered(asked, ending.action, translation)
        case _:  # a batch's answers to one question: never reported by a question's screens
            return ""


def described(request: ProvideChoiceRequest, answer: Answered, translation: Translation) -> str:
    """An answer as the person reads it back: what they chose, or typed, and whether they added
    notes."""
    _ = translation
    options = format_list(request.labels(answer.selected_ids), translation)
    if answer.custom_input is not None:
        text = shortened(answer.custom_input)
        if answer.placeholder_used:
            said = _.gettext('Accepted the suggested answer: "{text}".', text=text)
        elif answer.selected_ids:
            said = _.gettext(
                'Your own answer: "{text}", and selected: {options}.', text=text, options=options
            )
        else:
            said = _.gettext('Your own answer: "{text}".', text=text)
    elif answer.selected_ids:
        said = _.gettext("Selected: {options}.", options=options)
    else:
        said = _.gettext("Nothing selected.")
    noted = any(note.strip() for note in answer.option_annotations.values())
    return _.gettext("{answer} With notes.", answer=said) if noted else said


def _unanswered(
    request: ProvideChoiceRequest, action: TimeoutAction, translation: Translation
) -> str:
    """The deadline passed: what the question returns, never passing a default off as chosen."""
    _ = translation
    defaults = request.labels(request.default_selection_ids)
    if action == "return_nothing":
        return _.gettext("No answer before the deadline; nothing selected.")
    if not defaults:
        return _.gettext("No answer before the deadline; no defaults to return, nothing selected.")
    return _.gettext(
        "No answer before the deadline; defaults returned, not chosen by the person: {options}.",
        options=format_list(defaults, translation),
    )


def _batch_line(batch: BatchRequest, ending: Ending, translation: Translation) -> str:
    """What happened to the batch, then each answer the person gave ("Database: Selected: ...")."""
    _ = translation
    count = len(batch.questions)
    answers: dict[str, Answered] = {}
    if isinstance(ending, BatchAnswered):
        answers = ending.answers
    elif isinstance(ending, Cancelled | TimedOut):
        answers = ending.kept
    match ending:
        case BatchAnswered():
            opening = _.ngettext("Answered {count} question.", "Answered {count} questions.", count)
        case Cancelled(by="agent"):
            opening = _.ngettext(
                "Cancelled by the agent after {answered} of {count} question.",
                "Cancelled by the agent after {answered} of {count} questions.",
                count,
                answered=len(answers),
            )
        case Cancelled():
            opening = _.ngettext(
                "Cancelled by the person after {answered} of {count} question.",
                "Cancelled by the person after {answered} of {count} questions.",
                count,
                answered=len(answers),
            )
        case _:
            opening = _.ngettext(
                "The deadline passed after {answered} of {count} question.",
                "The deadline passed after {answered} of {count} questions.",
                count,
                answered=len(answers),
            )
    said = [
        _.gettext(
            "{name}: {answer}",
            name=item.name,
            answer=described(item.request, answers[item.id], translation),
        )
        for item in batch.questions
        if item.id in answers
    ]
    return " ".join([opening, *said])
