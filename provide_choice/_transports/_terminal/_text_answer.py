"""Typing an answer: the whole answer (text-input mode) or an own answer beside the options (hybrid).

An empty field stands for the agent's placeholder, but only when the person can see it: a
placeholder hidden by their settings is never sent as if they had chosen it.
"""

from __future__ import annotations

import questionary
from prompt_toolkit.formatted_text import FormattedText

from provide_choice._contract._presentation import shown_placeholder
from provide_choice._contract._request import LONE_SURROGATE
from provide_choice._contract._response import Answered
from provide_choice._transports._terminal._screen import Screen
from provide_choice._transports._terminal._state import QuestionState
from provide_choice._transports._terminal._style import STYLE


async def answer_in_text(screen: Screen, state: QuestionState) -> Answered:
    """The text-input question: one typed answer."""
    text, placeholder_used = await type_answer(screen, state, "Your answer")
    return Answered(custom_input=text, placeholder_used=placeholder_used)


async def type_answer(screen: Screen, state: QuestionState, message: str) -> tuple[str, bool]:
    """The person's text, and whether it is the placeholder they accepted with an empty field."""
    placeholder = shown_placeholder(state.request, state.settings)

    def check(text: str) -> bool | str:
        return bool(text.strip() or placeholder) or "Type an answer (Ctrl-C cancels)"

    text = typed_text(
        await screen.answer(
            questionary.text(
                message,
                validate=check,
                placeholder=FormattedText([("class:placeholder", placeholder)])
                if placeholder
                else None,
                instruction="(Enter submits, empty uses the suggestion)"
                if placeholder
                else "(Enter submits)",
                style=STYLE,
            )
        )
    )
    if text or placeholder is None:
        return text, False
    return placeholder, True


def typed_text(text: str) -> str:
    """What the person typed, trimmed, with every byte that was not UTF-8 replaced by U+FFFD.
    prompt_toolkit keeps such bytes as lone surrogates, which no answer can carry (JSON, HTTP)."""
    return LONE_SURROGATE.sub("\ufffd", text).strip()
