"""How a question is shown: the agent's request as the person's settings adjust it.

The terminals, the page and the app show the same questions, so these rules are written once, here: a
setting means the same on every surface. Where the person set something, it wins; where they left
it unset (`None`), the request decides.
"""

from __future__ import annotations

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


def hiding_problem(request: ProvideChoiceRequest, hidden_count: int) -> str | None:
    """Why hiding this many options is refused, or None. Hiding must leave enough options to reach
    the minimum, and one to pick unless the person can answer by typing instead (hybrid)."""
    needed = max(request.limits.minimum, 0 if request.selection_mode == "hybrid" else 1)
    if len(request.options or ()) - hidden_count >= needed:
        return None
    return f"Keep at least {needed} option{'s' if needed > 1 else ''} visible"


def count_text(minimum: int, maximum: int) -> str:
    """How many options an answer may hold, as every surface says it: "exactly 2 options",
    "up to 3 options", "1 to 3 options"."""
    noun = "option" if maximum == 1 else "options"
    if minimum == maximum:
        return f"exactly {minimum} {noun}"
    if minimum == 0:
        return f"up to {maximum} {noun}"
    return f"{minimum} to {maximum} {noun}"


def count_refusal(request: ProvideChoiceRequest, own_answer: bool, chosen: int) -> str | None:
    """Why an answer holding `chosen` options cannot be sent (with or without an own answer, typed
    or the suggestion), or None when it can: the one wording of the count rule, on every surface
    (the page and the app take it from their state, one sentence per count)."""
    minimum, maximum = limits_for(request, own_answer)
    if minimum <= chosen <= maximum:
        return None
    typing = request.selection_mode == "hybrid" and not own_answer
    waiver = ", or type your own answer" if typing else ""
    return f"Choose {count_text(minimum, maximum)}{waiver} ({chosen} chosen)"


def choose_text(request: ProvideChoiceRequest, settings: InteractionSettings) -> str:
    """What to choose, as every surface says it: "Choose one" (a pick sends the answer),
    "Choose 1 to 3 options", "Choose up to 2 options, or type your own answer"."""
    if submits_on_selection(request, settings):
        return "Choose one"
    text = f"Choose {count_text(*request.limits)}"
    return f"{text}, or type your own answer" if request.selection_mode == "hybrid" else text
