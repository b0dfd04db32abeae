"""What the person's gesture in the chat reports, as every surface reports it (a `Submission`), or
why it cannot be sent: Done sends what is chosen with nothing typed, a reply sends what is chosen
with the text typed (the rule every chat shares: `chat_submission`), in Telegram's words."""

from __future__ import annotations

from provide_choice.transports import (
    InteractionSettings,
    ProvideChoiceRequest,
    Submission,
    chat_submission,
)

TEXT_NEEDED = "Reply to the message below with your answer"
NO_TEXT = "This question takes no typed answer: use its buttons"


def done(
    request: ProvideChoiceRequest, settings: InteractionSettings, chosen: list[str]
) -> Submission | str:
    """Done pressed with `chosen`: what it sends, or why not."""
    return chat_submission(
        request, settings, chosen, None, text_needed=TEXT_NEEDED, no_text=NO_TEXT
    )


def typed(
    request: ProvideChoiceRequest, settings: InteractionSettings, chosen: list[str], text: str
) -> Submission | str:
    """A reply of `text` with `chosen`: what it sends, or why not."""
    return chat_submission(
        request, settings, chosen, text, text_needed=TEXT_NEEDED, no_text=NO_TEXT
    )
