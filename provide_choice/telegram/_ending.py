"""What a question's message says once it ended, wherever it ended ("Answered in the terminal:
PostgreSQL", "Cancelled by the agent"): the words every chat shares (`ending_words`), as
Telegram's HTML."""

from __future__ import annotations

from provide_choice.telegram._html import escaped
from provide_choice.transports import PendingQuestion, ending_words


def ending_line(question: PendingQuestion) -> str:
    """How `question` ended, in one line of Telegram HTML."""
    return escaped(ending_words(question))
