"""How a question is shown: the agent's request as the person's settings adjust it.

The terminals, the page and the app show the same questions, so these rules are written once, here: a
setting means the same on every surface. Where the person set something, it wins; where they left
it unset (`None`), the request decides.
"""

from __future__ import annotations

from present_choices._translation import ENGLISH, Translation
from provide_choice._contract._request import ProvideChoiceRequest, limits_for
from provide_choice._contract._settings import InteractionSettings


def notes_offered(request: ProvideChoiceRequest, settings: InteractionSettings) -> bool:
    """Notes need both: the agent allows them, and the person has not switched them off."""
    return request.allow_annotations and settings.annotations


def shown_placeholder(request: ProvideChoiceRequest, settings: InteractionSettings) -> str | None:
    """The suggested answer the person sees, or None when there is none or it is hidden. Only a
    shown suggestion may stand in for an empty answer: accepting unseen text is no choice."""
    visible = (
        request.placeholder_visible
        if settings.placeholder_visible is None
        else settings.placeholder_visible
    )
    return request.placeholder if visible else None


def submits_on_selection(request: ProvideChoiceRequest, settings: InteractionSettings) -> bool:
    """Single choice where picking an option is the whole answer (it needs at least one pick)."""
    single_submit = (
        request.single_submit_mode if settings.single_submit is None else settings.single_submit
    )
    return request.selection_mode == "single" and single_submit and request.limits.minimum == 1


def hiding_problem(
    request: ProvideChoiceRequest, hidden_count: int, translation: Translation = ENGLISH
) -> str | None:
    """Why hiding this many options is refused, or None. Hiding must leave enough options to reach
    the minimum, and one to pick unless the person can answer by typing instead (hybrid)."""
    needed = max(request.limits.minimum, 0 if request.selection_mode == "hybrid" else 1)
    if len(request.options or ()) - hidden_count >= needed:
        return None
    return translation.ngettext(
        "Keep at least {count} option visible", "Keep at least {count} options visible", needed
    )


def count_text(
    minimum: int, maximum: int, translation: Translation = ENGLISH, *, or_typed: bool = False
) -> str:
    """How many options an answer may hold, as every surface says it: "Choose exactly 2 options",
    "Choose up to 3 options", "Choose 1 to 3 options"; `or_typed` adds that an own answer does
    too. Each is one message: a language orders its words its own way."""
    _ = translation
    if minimum == maximum and or_typed:
        return _.ngettext(
            "Choose exactly {count} option, or type your own answer",
            "Choose exactly {count} options, or type your own answer",
            minimum,
        )
    if minimum == maximum:
        return _.ngettext(
            "Choose exactly {count} option", "Choose exactly {count} options", minimum
        )
    if minimum == 0 and or_typed:
        return _.ngettext(
            "Choose up to {count} option, or type your own answer",
            "Choose up to {count} options, or type your own answer",
            maximum,
        )
    if minimum == 0:
        return _.ngettext("Choose up to {count} option", "Choose up to {count} options", maximum)
    if or_typed:
        return _.ngettext(
            "Choose {minimum} to {count} option, or type your own answer",
            "Choose {minimum} to {count} options, or type your own answer",
            maximum,
            minimum=minimum,
        )
    return _.ngettext(
        "Choose {minimum} to {count} option",
        "Choose {minimum} to {count} options",
        maximum,
        minimum=minimum,
    )


def count_refusal(
    request: ProvideChoiceRequest,
    own_answer: bool,
    chosen: int,
    translation: Translation = ENGLISH,
) -> str | None:
    """Why an answer holding `chosen` options cannot be sent (with or without an own answer, typed
    or the suggestion), or None when it can: the one wording of the count rule, on every surface
    (the page and the app take it from their state, one sentence per count)."""
    minimum, maximum = limits_for(request, own_answer)
    if minimum <= chosen <= maximum:
        return None
    typing = request.selection_mode == "hybrid" and not own_answer
    rule = count_text(minimum, maximum, translation, or_typed=typing)
    return translation.ngettext(
        "{rule} ({count} chosen)", "{rule} ({count} chosen)", chosen, rule=rule
    )


def choose_text(
    request: ProvideChoiceRequest, settings: InteractionSettings, translation: Translation = ENGLISH
) -> str:
    """What to choose, as every surface says it: "Choose one" (a pick sends the answer),
    "Choose 1 to 3 options", "Choose up to 2 options, or type your own answer"."""
    if submits_on_selection(request, settings):
        return translation.gettext("Choose one")
    hybrid = request.selection_mode == "hybrid"
    return count_text(*request.limits, translation, or_typed=hybrid)
