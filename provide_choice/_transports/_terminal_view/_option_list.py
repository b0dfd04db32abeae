"""The question as a list of options: single, multi and hybrid modes.

A single choice that submits on selection is a plain select list; every other list is a checkbox list
whose Enter is guarded by the selection limits. Notes are typed on their own screen, after which the
list comes back as it was; in hybrid mode an extra entry leads to typing an own answer. The first
nine options are numbered (their digit chooses them), a longer list filters as the person types,
and the pointed option's preview shows under the list.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import cast

import questionary
from prompt_toolkit.formatted_text import StyleAndTextTuples

from provide_choice._contract._meaning import Submission
from provide_choice._contract._presentation import choose_text, count_refusal
from provide_choice._contract._request import ProvideChoiceOption
from provide_choice._transports._terminal_view._filter import FILTER_AFTER, filter_as_typed
from provide_choice._transports._terminal_view._keys import (
    NUMBER_KEYS,
    list_control,
    option_list_keys,
)
from provide_choice._transports._terminal_view._list_values import (
    OWN_ANSWER,
    ListValue,
    NoteRequest,
    OwnAnswer,
)
from provide_choice._transports._terminal_view._notes import ask_note
from provide_choice._transports._terminal_view._preview import option_preview
from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._state import QuestionState
from provide_choice._transports._terminal_view._style import STYLE
from provide_choice._transports._terminal_view._text_answer import type_answer

NOTE_HINTS = ("n", "g")
FILTER_NOTE_HINTS = ("Ctrl-N", "Ctrl-G")
"""The note keys as the key help names them (`_keys.NOTE_KEYS`, `_keys.FILTER_NOTE_KEYS`)."""

Picked = ListValue | list[ListValue] | NoteRequest
"""What the list screen ends with: the selected entry, the ticked entries, or a wish for a note."""


class OptionList:
    """Shows the list until the person submits it, with a note screen between as often as asked."""

    def __init__(self, screen: Screen, state: QuestionState) -> None:
        self.screen = screen
        self.state = state

    async def answer(self, draft: Submission | None = None) -> Submission:
        """The person's answer; `draft` (their earlier answer, when they came back to this
        question of a batch) is what the list opens with instead of the defaults."""
        state = self.state
        visible_ids = {option.id for option in state.visible_options}
        opened_with = state.request.default_selection_ids if draft is None else draft.selected_ids
        checked: tuple[ListValue, ...] = tuple(
            option_id for option_id in opened_with if option_id in visible_ids
        )
        if draft is not None and draft.custom_input:
            checked += (OWN_ANSWER,)
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
            earlier = draft.custom_input if draft is not None else None
            message = state.translation.gettext("Your own answer")
            typed = await type_answer(self.screen, state, message, chosen, earlier)
        return state.submission(chosen, typed)

    async def _pick(self, checked: Sequence[ListValue], pointer: ListValue | None) -> Picked:
        submits_on_selection = self.state.submits_on_selection
        question = self._question(checked, pointer)
        control = list_control(question.application.layout)
        if self._filtering and control is not None:
            searchable = {option.id: _searchable(option) for option in self._options}
            layout = question.application.layout
            filter_as_typed(control, layout, searchable, self.state.translation)
        picked = await self.screen.show(
            question,
            list_keys=functools.partial(
                option_list_keys,
                notes=self.state.notes_offered,
                overall_note=self.state.overall_note_offered,
                radio=not submits_on_selection and self.state.request.limits.maximum == 1,
                numbered=self._numbered,
                submits=submits_on_selection,
                filtering=self._filtering,
            ),
            check=None if submits_on_selection else self._check_count,
            hints=self._key_help(),
            previews=self._preview if self._has_previews else None,
        )
        return cast(Picked, picked)

    @property
    def _options(self) -> list[ProvideChoiceOption]:
        return self.state.visible_options

    @property
    def _numbered(self) -> list[str]:
        """The ids of the options the digits 1 to 9 reach: the first nine, in list order."""
        return [option.id for option in self._options[: len(NUMBER_KEYS)]]

    @property
    def _filtering(self) -> bool:
        return len(self._options) > FILTER_AFTER

    @property
    def _has_previews(self) -> bool:
        return any(option.preview for option in self._options)

    def _preview(self, value: ListValue) -> StyleAndTextTuples:
        option = next((o for o in self._options if o.id == value), None)
        return option_preview(option, self.state.translation)

    def _question(
        self, checked: Sequence[ListValue], pointer: ListValue | None
    ) -> questionary.Question:
        choices = [
            questionary.Choice(
                self._option_title(option, number), option.id, checked=option.id in checked
            )
            for number, option in enumerate(self._options, start=1)
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
        # A list that filters takes the letters j and k for the filter, not for moving.
        message, instruction, filtering = self._message(), " ", self._filtering
        if self.state.submits_on_selection:
            return questionary.select(
                message,
                choices,
                default=pointed,
                instruction=instruction,
                style=STYLE,
                use_search_filter=filtering,
                use_jk_keys=not filtering,
            )
        return questionary.checkbox(
            message,
            choices,
            initial_choice=pointed,
            instruction=instruction,
            style=STYLE,
            use_search_filter=filtering,
            use_jk_keys=not filtering,
        )

    def _key_help(self) -> list[str]:
        """The keys this list answers to, as its footer names them (the time left names Ctrl-C)."""
        state, _ = self.state, self.state.translation
        single = state.request.limits.maximum == 1
        keys = [_.gettext("↑↓ move")]
        if not state.submits_on_selection:
            keys.append(_.gettext("space select") if single else _.gettext("space toggle"))
        keys.append(
            _.gettext("Enter next") if state.place is not None else _.gettext("Enter submit")
        )
        last = len(self._numbered)
        if last and state.submits_on_selection:
            keys.append(_.gettext("1-{last} choose", last=last))
        elif last:
            toggle = _.gettext("1-{last} toggle", last=last)
            keys.append(_.gettext("1-{last} select", last=last) if single else toggle)
        if self._filtering:
            keys.append(_.gettext("type to filter"))
        note_key, overall_key = FILTER_NOTE_HINTS if self._filtering else NOTE_HINTS
        if state.notes_offered:
            keys.append(_.gettext("{key} note on option", key=note_key))
        if state.overall_note_offered:
            keys.append(_.gettext("{key} overall note", key=overall_key))
        return keys

    def _message(self) -> str:
        return choose_text(self.state.request, self.state.settings, self.state.translation)

    def _own_answer_title(self) -> str:
        """The hybrid list's own-answer entry, with the suggestion that submitting with nothing
        chosen sends, so the person sees what Enter sends."""
        _ = self.state.translation
        if self.state.gives_own_answer([], None):
            return _.gettext(
                '✎ Type my own answer… (nothing chosen sends "{suggestion}")',
                suggestion=self.state.placeholder,
            )
        return _.gettext("✎ Type my own answer…")

    def _check_count(self, values: list[ListValue]) -> bool | str:
        """Refuse a submission outside the limits (`limits_for`: an own answer, typed or the
        suggestion, waives the minimum in hybrid mode)."""
        chosen = _chosen(values)
        own_answer = OWN_ANSWER in values or self.state.gives_own_answer(chosen, None)
        refused = count_refusal(self.state.request, own_answer, len(chosen), self.state.translation)
        return refused or True

    def _option_title(self, option: ProvideChoiceOption, number: int) -> list[tuple[str, str]]:
        """The option's line: its digit (the first nine), label, recommendation, description, note."""
        key = f"{number} " if number <= len(NUMBER_KEYS) else "  "
        title = [("class:number", key), ("class:text", option.label)]
        if option.recommended:
            recommended = self.state.translation.gettext("★ recommended")
            title.append(("class:recommended", f"  {recommended}"))
        if option.description:
            title.append(("class:description", f"  — {option.description}"))
        if note := self.state.notes.get(option.id):
            title.append(("class:note", f"  ✎ {note}"))
        return title


def _searchable(option: ProvideChoiceOption) -> str:
    """What typing in a long list matches an option by: its label and its description."""
    return f"{option.label} {option.description or ''}"


def _chosen(values: list[ListValue]) -> list[str]:
    """The option ids among the list's values (the own-answer entry is not an option)."""
    return [value for value in values if not isinstance(value, OwnAnswer)]
