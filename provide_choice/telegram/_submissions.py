"""What the person's gesture in the chat reports, as every surface reports it (a `Submission`), or
why it cannot be sent, in the words of the contract (`count_refusal`): Done sends what is chosen
with the text field left empty (the suggestion, where one is shown, stands in for it as on the
page); a reply sends what is chosen with the text typed."""

from __future__ import annotations

from provide_choice.telegram._message import takes_text
from provide_choice.transports import (
    InteractionSettings,
    ProvideChoiceRequest,
    Submission,
    count_refusal,
    shown_placeholder,
)

TEXT_NEEDED = "Reply to the message below with your answer"
NO_TEXT = "This question takes no typed answer: use its buttons"


def in_option_order(request: ProvideChoiceRequest, chosen: list[str]) -> list[str]:
    return [option.id for option in request.options or () if option.id in chosen]


def done(
    request: ProvideChoiceRequest, settings: InteractionSettings, chosen: list[str]
) -> Submission | str:
    """Done pressed with `chosen`: what it sends, or why not."""
    selected = in_option_order(request, chosen)
    suggested = takes_text(request) and shown_placeholder(request, settings) is not None
    if request.selection_mode == "text_input" and not suggested:
        return TEXT_NEEDED
    own_answer = suggested and (request.selection_mode == "text_input" or not selected)
    refusal = count_refusal(request, own_answer, len(selected))
    if refusal is not None:
        return refusal
    return Submission(selected_ids=selected, placeholder_shown=suggested)


def typed(request: ProvideChoiceRequest, chosen: list[str], text: str) -> Submission | str:
    """A reply of `text` with `chosen`: what it sends, or why not."""
    if not takes_text(request):
        return NO_TEXT
    selected = in_option_order(request, chosen)
    refusal = count_refusal(request, True, len(selected))
    if refusal is not None:
        return refusal
    return Submission(selected_ids=selected, custom_input=text)
