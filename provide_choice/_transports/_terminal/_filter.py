"""A long list (more than nine options) narrows as the person types, and says how many it hides.

questionary filters its lists on `title.lower()`, which works only for plain-text titles; ours are
styled (label, description, recommendation, note). `filter_as_typed` turns the list's control into
a `TypedFilter`, which matches what the person types against each option's label and description,
keeps the own-answer entry in view, and shows the count of hidden options under the list.
Ticks on hidden options stay: questionary reads them from the whole list, not the filtered one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from questionary.prompts.common import InquirerControl

FILTER_AFTER = 9
"""More options than this (more than the digits can reach): the list filters as the person types."""


class TypedFilter(InquirerControl):
    """questionary's list control, filtered on the text `searchable` holds for each option id."""

    searchable: Mapping[object, str] = {}

    @property
    def filtered_choices(self) -> list[Any]:
        typed = (self.search_filter or "").casefold()
        if not typed:
            return list(self.choices)
        shown = [
            choice
            for choice in self.choices
            if choice.value not in self.searchable or typed in self.searchable[choice.value]
        ]
        self.found_in_search = len(shown) > len(self.choices) - len(self.searchable)
        return shown if self.found_in_search else list(self.choices)

    def get_search_string_tokens(self) -> StyleAndTextTuples | None:
        if self.search_filter is None:
            return None
        shown = self.filtered_choices
        if not self.found_in_search:
            said = "no option matches; all shown (Backspace erases)"
        else:
            hidden = len(self.choices) - len(shown)
            said = f"{hidden} of {len(self.searchable)} options hidden (Backspace erases)"
        style = "class:search_success" if self.found_in_search else "class:search_none"
        return [
            ("", "\n"),
            ("class:question-mark", "Filter: "),
            (style, self.search_filter),
            ("class:description", f"  {said}"),
        ]


def filter_as_typed(control: InquirerControl, searchable: Mapping[object, str]) -> None:
    """Make the list `control` filter on `searchable` (option id → its label and description).

    The control is questionary's own, built inside `questionary.select`/`checkbox` and bound to its
    keys, so it changes class in place rather than being replaced."""
    control.__class__ = TypedFilter
    assert isinstance(control, TypedFilter)
    control.searchable = {key: text.casefold() for key, text in searchable.items()}
