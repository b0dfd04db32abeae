"""The question as a list of options: single, multi and hybrid modes.

A single choice that submits on selection is a plain select list; every other list is a checkbox list
whose Enter is guarded by the selection limits. Notes are typed on their own screen, after which the
list comes back as it was; in hybrid mode an extra entry leads to typing an own answer.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

import questionary

from provide_choice._contract._meaning import Submission
from provide_choice._contract._presentation import choose_text, count_text
from provide_choice._contract._request import ProvideChoiceOption, limits_for
from provide_choice._transports._terminal._keys import option_list_keys
from provide_choice._transports._terminal._list_values import (
    OWN_ANSWER,
    ListValue,
    NoteRequest,
    OwnAnswer,
)
from provide_choice._transports._terminal._notes import ask_note
from provide_choice._transports._terminal._screen import Screen
from provide_choice._transports._terminal._state import QuestionState
from provide_choice._transports._terminal._style import STYLE
from provide_choice._transports._terminal._text_answer import type_answer

Picked = ListValue | list[ListValue] | NoteRequest
"""What the list screen ends with: the selected entry, the ticked entries, or a wish for a note."""


class OptionList:
    """Shows the list until the person submits it, with a note screen between as often as asked."""

    def __init__(self, screen: Screen, state: QuestionState) -> None:
        self.screen = screen
        self.state = state

    async def answer(self) -> Submission:
        state = self.state
        visible_ids = {option.id for option in state.visible_options}
        checked: tuple[ListValue, ...] = tuple(
            option_id
            for option_id in state.request.default_selection_ids
            if option_id in visible_ids
        )
        pointer: ListValue | None = checked[0] if checked else None
        while True:
            picked = await self._pick(checked, pointer)
            if not isinstance(picked, NoteRequest):
                break
            checked, pointer = picked.checked, picked.pointed
            await ask_note(self.screen, state, picked.option_id)
        values = picked if isinstance(picked, list) else [picked]
        chosen = _chosen(values)
        typed = None
        if OWN_ANSWER in values:
            typed = await type_answer(self.screen, state, "Your own answer", chosen)
        return state.submission(chosen, typed)

    async def _pick(self, checked: Sequence[ListValue], pointer: ListValue | None) -> Picked:
        submits_on_selection = self.state.submits_on_selection
        picked = await self.screen.show(
            self._question(checked, pointer),
            list_keys=functools.partial(
                option_list_keys,
                notes=self.state.notes_offered,
                radio=not submits_on_selection and self.state.request.limits.maximum == 1,
            ),
            check=None if submits_on_selection else self._check_count,
            hints=self._key_help(),
        )
        return cast(Picked, picked)

    def _question(
        self, checked: Sequence[ListValue], pointer: ListValue | None
    ) -> questionary.Question:
        choices = [
            questionary.Choice(self._option_title(option), option.id, checked=option.id in checked)
            for option in self.state.visible_options
        ]
        if self.state.request.selection_mode == "hybrid":
            choices.append(
                questionary.Choice(
                    self._own_answer_title(), OWN_ANSWER, checked=OWN_ANSWER in checked
                )
            )
        # Pointed at by the entry itself: questionary's types take a string or a Choice, not our values.
        pointed = next((choice for choice in choices if choice.value == pointer), choices[0])
        # The keys are named in the screen's footer, laid out for the terminal's width; questionary
        # shows a hint of its own for an empty instruction, so it gets a blank one.
        message, instruction = self._message(), " "
        if self.state.submits_on_selection:
            return questionary.select(
                message, choices, default=pointed, instruction=instruction, style=STYLE
            )
        return questionary.checkbox(
            message, choices, initial_choice=pointed, instruction=instruction, style=STYLE
        )

    def _key_help(self) -> list[str]:
        """The keys this list answers to, as its footer names them (the time left names Ctrl-C)."""
        keys = ["↑↓ move", "Enter submit"]
        if self.state.notes_offered:
            keys += ["n note on option", "g overall note"]
        if not self.state.submits_on_selection:
            maximum = self.state.request.limits.maximum
            keys.insert(1, "space select" if maximum == 1 else "space toggle")
        return keys

    def _message(self) -> str:
        return choose_text(self.state.request, self.state.settings)

    def _own_answer_title(self) -> str:
        """The hybrid list's own-answer entry, with the suggestion that submitting with nothing
        chosen sends, so the person sees what Enter sends."""
        title = "✎ Type my own answer…"
        if self.state.gives_own_answer([], None):
            return f'{title} (nothing chosen sends "{self.state.placeholder}")'
        return title

    def _check_count(self, values: list[ListValue]) -> bool | str:
        """Refuse a submission outside the limits (`limits_for`: an own answer, typed or the
        suggestion, waives the minimum in hybrid mode)."""
        chosen = _chosen(values)
        own_answer = OWN_ANSWER in values or self.state.gives_own_answer(chosen, None)
        minimum, maximum = limits_for(self.state.request, own_answer)
        if minimum <= len(chosen) <= maximum:
            return True
        return f"Choose {count_text(minimum, maximum)} ({len(chosen)} chosen)"

    def _option_title(self, option: ProvideChoiceOption) -> list[tuple[str, str]]:
        title = [("class:text", option.label)]
        if option.recommended:
            title.append(("class:recommended", "  ★ recommended"))
        if option.description:
            title.append(("class:description", f"  — {option.description}"))
        if note := self.state.notes.get(option.id):
            title.append(("class:note", f"  ✎ {note}"))
        return title


def _chosen(values: list[ListValue]) -> list[str]:
    """The option ids among the list's values (the own-answer entry is not an option)."""
    return [value for value in values if not isinstance(value, OwnAnswer)]
