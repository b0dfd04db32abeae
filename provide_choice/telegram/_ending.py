"""What a question's message says once it ended, wherever it ended: "Answered in the terminal:
PostgreSQL", "Answered on the page: PostgreSQL", "Answered in Telegram: Login, Search",
"Cancelled in the terminal", "Cancelled by the agent", "Timed out: no answer before the deadline".
Where is the transport the person ended it through (the ending's `via`, else the one it was asked
on), worded by the seam's table (`answered_where`)."""

from __future__ import annotations

from provide_choice.telegram._html import escaped
from provide_choice.transports import (
    Answered,
    BatchAnswered,
    BatchRequest,
    Cancelled,
    PendingQuestion,
    ProvideChoiceRequest,
    answered_where,
)

TEXT_SHOWN = 60
"""Characters of a typed answer an ending line shows."""


def ending_line(question: PendingQuestion) -> str:
    """How `question` ended, in one line of Telegram HTML."""
    outcome = question.outcome
    where = _where(question)
    if isinstance(outcome, Answered):
        request = question.interaction.request
        return escaped(f"Answered {where}: {answer_text(request, outcome)}")
    if isinstance(outcome, BatchAnswered):
        batch = question.interaction.asked
        assert isinstance(batch, BatchRequest)
        parts = [
            f"{item.name}: {answer_text(item.request, outcome.answers[item.id])}"
            for item in batch.questions
            if item.id in outcome.answers
        ]
        return escaped(f"Answered {where}: {'; '.join(parts)}")
    if isinstance(outcome, Cancelled):
        return escaped("Cancelled by the agent" if outcome.by == "agent" else f"Cancelled {where}")
    return escaped("Timed out: no answer before the deadline")


def answer_text(request: ProvideChoiceRequest, answer: Answered) -> str:
    """An answer in a few words: the options' labels, and the text typed (or suggested)."""
    parts = list(request.labels(answer.selected_ids))
    if answer.custom_input is not None:
        text = " ".join(answer.custom_input.split())
        shown = text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1] + "…"
        parts.append(f"“{shown}”")
    return ", ".join(parts) or "nothing selected"


def _where(question: PendingQuestion) -> str:
    via = getattr(question.outcome, "via", None)
    return answered_where(via or question.transport, at_an_address=question.url is not None)
