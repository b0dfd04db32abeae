"""Typing an answer: the whole answer (text-input mode) or an own answer beside the options (hybrid).

What an empty field means is not decided here: the field shows the suggestion, and accepts being
left empty, exactly where `_contract._meaning` says an empty field sends it.
"""

from __future__ import annotations

import questionary
from prompt_toolkit.formatted_text import FormattedText

from provide_choice._contract._meaning import Submission
from provide_choice._contract._request import LONE_SURROGATE
from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._state import QuestionState
from provide_choice._transports._terminal_view._style import STYLE


async def answer_in_text(
    screen: Screen, state: QuestionState, draft: Submission | None = None
) -> Submission:
    """The text-input question: one typed answer (the field holds `draft`'s text, the answer given
    before, when the person came back to this question of a batch)."""
    earlier = draft.custom_input if draft is not None else None
    message = state.translation.gettext("Your answer")
    return state.submission([], await type_answer(screen, state, message, [], earlier))


async def type_answer(
    screen: Screen,
    state: QuestionState,
    message: str,
    selected_ids: list[str],
    earlier: str | None = None,
) -> str | None:
    """The person's text, None when they left the field empty where that sends the suggestion
    (beside the options `selected_ids`); the field opens with `earlier` in it."""
    _ = state.translation
    placeholder = state.placeholder if state.gives_own_answer(selected_ids, None) else None

    def check(text: str) -> bool | str:
        return bool(text.strip() or placeholder) or _.gettext("Type an answer (Ctrl-C cancels)")

    text = typed_text(
        await screen.answer(
            questionary.text(
                message,
                default=earlier or "",
                validate=check,
                placeholder=FormattedText([("class:placeholder", placeholder)])
                if placeholder
                else None,
                instruction=_.gettext("(Enter submits, empty uses the suggestion)")
                if placeholder
                else _.gettext("(Enter submits)"),
                style=STYLE,
            )
        )
    )
    return text or None


def typed_text(text: str) -> str:
    """What the person typed, trimmed, with every byte that was not UTF-8 replaced by U+FFFD.
    prompt_toolkit keeps such bytes as lone surrogates, which no answer can carry (JSON, HTTP)."""
    return LONE_SURROGATE.sub("\ufffd", text).strip()
