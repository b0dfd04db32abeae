"""A question as an MCP elicitation form (the 2025-11-25 shapes), and the form's answer as an outcome.

A client draws the form itself, so it gets only what the spec lets a form carry: flat fields of
strings, numbers, booleans, a single choice (`oneOf` arms of `{const: id, title: label}`) and a
multiple choice (an array whose `items.anyOf` has the same arms, with `minItems`/`maxItems`). The
title and the prompt are the message; a description and the recommended mark go in an arm's title
("Red (recommended): warm"); a note on the whole question is an optional text field. A form has no
room for notes on single options, so those are not offered here.

What comes back is checked before it is trusted: an id that was not offered or a count outside
the limits is a problem worded for the person, who is asked again once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from present_choices._schema import quote
from provide_choice._contract._meaning import Submission, check_submission, meaning
from provide_choice._contract._outcomes import Answered
from provide_choice._contract._presentation import (
    count_refusal,
    count_text,
    notes_offered,
    shown_placeholder,
)
from provide_choice._contract._request import ProvideChoiceOption, ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings

if TYPE_CHECKING:
    from mcp_types import ElicitRequestFormParams

CHOICE = "choice"
"""The single-choice field (single; hybrid with at most one option)."""
CHOICES = "choices"
"""The multiple-choice field (multi; hybrid with several)."""
ANSWER = "answer"
"""The text field of text_input."""
OWN_ANSWER = "own_answer"
"""hybrid: the person's own answer instead of (or beside) the options."""
NOTE = "note"
"""The note on the whole question, when notes are offered."""


def form_params(
    request: ProvideChoiceRequest, settings: InteractionSettings, problem: str | None = None
) -> ElicitRequestFormParams:
    """The `elicitation/create` parameters for the question; `problem` says why it is asked again."""
    message = f"{request.title}\n\n{request.prompt}"
    if problem is not None:
        message = f"Your answer did not fit: {problem}. Please answer again.\n\n{message}"
    from mcp_types import ElicitRequestFormParams  # the SDK loads only when a form is shown

    return ElicitRequestFormParams(
        mode="form", message=message, requested_schema=form_schema(request, settings)
    )


@dataclass(frozen=True)
class FieldNames:
    """The names of a question's fields in a form: its own in a form of one question, its id (and
    the id with `OWN_ANSWER_SUFFIX`) in a form of a batch."""

    choice: str = CHOICE
    choices: str = CHOICES
    answer: str = ANSWER
    own_answer: str = OWN_ANSWER


ONE_QUESTION = FieldNames()


def form_schema(request: ProvideChoiceRequest, settings: InteractionSettings) -> dict[str, Any]:
    """The form's flat object schema: the choice field, the text field, the note, as the mode and
    the person's settings have them."""
    properties, required = question_fields(request, settings, ONE_QUESTION)
    if notes_offered(request, settings):
        properties[NOTE] = {"type": "string", "title": "A note for the agent (optional)"}
    return {"type": "object", "properties": properties, "required": required}


def question_fields(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    names: FieldNames,
    heading: tuple[str, str] | None = None,
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """One question's fields and which of them are required. `heading` (a batch's question: its
    header and its prompt) becomes the main field's title and description."""
    mode, (minimum, maximum) = request.selection_mode, request.limits
    defaults = list(request.default_selection_ids)
    placeholder = text_default(request, settings)
    properties: dict[str, dict[str, Any]] = {}
    required: list[str] = []
    arms = [{"const": option.id, "title": arm_title(option)} for option in request.options or ()]
    if mode == "single" or (mode == "hybrid" and maximum == 1):
        properties[names.choice] = {
            "type": "string",
            "title": "Choose one" if mode == "single" else "Choose an option",
            "oneOf": arms,
        } | ({"default": defaults[0]} if defaults else {})
        if mode == "single":
            required.append(names.choice)
    elif mode in ("multi", "hybrid"):
        properties[names.choices] = {
            "type": "array",
            "title": count_text(minimum, maximum),
            "items": {"anyOf": arms},
            # In hybrid mode typing an own answer stands in for the options, so none are required.
            "minItems": minimum if mode == "multi" else 0,
            "maxItems": maximum,
        } | ({"default": defaults} if defaults else {})
        if mode == "multi" and minimum > 0:
            required.append(names.choices)
    if mode == "text_input":
        properties[names.answer] = {"type": "string", "title": "Your answer", "minLength": 1}
        properties[names.answer] |= {"default": placeholder} if placeholder else {}
        required.append(names.answer)
    if mode == "hybrid":
        properties[names.own_answer] = {"type": "string", "title": "Or your own answer"}
        properties[names.own_answer] |= {"default": placeholder} if placeholder else {}
    if heading is not None:
        title, description = heading
        main = next(iter(properties.values()))
        main["description"] = f"{main['title']}. {description}"
        main["title"] = title
        if mode == "hybrid":
            properties[names.own_answer]["title"] = f"{title}: or your own answer"
    return properties, required


def arm_title(option: ProvideChoiceOption) -> str:
    """An option as one line: its label, the recommended mark, its description."""
    title = option.label + (" (recommended)" if option.recommended else "")
    return f"{title}: {option.description}" if option.description else title


def read_answer(
    request: ProvideChoiceRequest, settings: InteractionSettings, content: Mapping[str, object]
) -> Answered:
    """The form's content as an answer. Raises `ChoicesError` with problems worded for the
    person (an id that was not offered, a count outside the limits, an empty answer)."""
    note = _text(content.get(NOTE)) if notes_offered(request, settings) else None
    submission, problems = read_submission(request, settings, content, ONE_QUESTION)
    submission = submission.model_copy(update={"global_annotation": note})
    # What this module let through must be an answer the question allows, like any surface's.
    problems += [] if problems else check_submission(submission, request, settings)
    if problems:
        raise ChoicesError(problems)
    return meaning(submission, request, settings)


def read_submission(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    content: Mapping[str, object],
    names: FieldNames,
) -> tuple[Submission, list[str]]:
    """What the person did in one question's fields, and the problems worded for them."""
    problems: list[str] = []
    one, several = content.get(names.choice), content.get(names.choices)
    if names.choice == names.choices:  # a batch's question: one field, one id or a list of ids
        one, several = (None, one) if isinstance(one, list) else (one, None)
    chosen: list[str] = []
    if request.selection_mode != "text_input":
        chosen = _chosen(request, one, several, problems)
    field = names.answer if request.selection_mode == "text_input" else names.own_answer
    text = _text(content.get(field))
    # A form cannot tell its default kept from the same text typed: both are the suggestion.
    kept_default = text is not None and text == text_default(request, settings)
    submission = Submission(
        selected_ids=chosen,
        custom_input=None if kept_default else text,
        placeholder_shown=kept_default,
    )
    answer = meaning(submission, request, settings)
    refused = count_refusal(request, answer.custom_input is not None, len(chosen))
    if request.options and not problems and refused is not None:
        problems.append(refused[:1].lower() + refused[1:])
    if request.selection_mode == "text_input" and answer.custom_input is None:
        problems.append("type an answer")
    return submission, problems


def text_default(request: ProvideChoiceRequest, settings: InteractionSettings) -> str | None:
    """What the text field is pre-filled with: the shown suggestion, where an empty field would
    send it. In hybrid mode with default options that is not the case, so it stays empty."""
    if request.selection_mode == "hybrid" and request.default_selection_ids:
        return None
    return shown_placeholder(request, settings)


def _chosen(
    request: ProvideChoiceRequest, one: object, several: object, problems: list[str]
) -> list[str]:
    """The offered ids among what the person chose; every other value is a problem."""
    values: list[object] = []
    if one not in (None, ""):
        values.append(one)
    if isinstance(several, list):
        values += several
    elif several is not None:
        problems.append(f"the choices must be a list of options, got {quote(several)}")
    ids = request.option_ids
    chosen = [value for value in values if isinstance(value, str) and value in ids]
    problems += [
        f"{quote(value)} is not one of the options" for value in values if value not in ids
    ]
    if len(set(chosen)) != len(chosen):
        problems.append("an option was chosen twice")
    return chosen


def _text(value: object) -> str | None:
    """A text field's answer, trimmed; None when left empty (or not text at all)."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    return str(value).strip() or None
