"""A long list (more than nine options) narrows as the person types, and says how many it hides.

questionary filters its lists on `title.lower()`, which works only for plain-text titles; ours are
styled (label, description, recommendation, note). `filter_as_typed` turns the list's control into
a `TypedFilter`, which matches what the person types against each option's label and description,
keeps the own-answer entry in view, and shows the count of hidden options under the list. Spaces
do not count (questionary's filter takes no space: space ticks), so "option3" finds "Option 3".
Ticks on hidden options stay: questionary reads them from the whole list, not the filtered one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.controls import FormattedTextControl
from questionary.prompts.common import InquirerControl

from present_choices._translation import ENGLISH, Translation

FILTER_AFTER = 9
"""More options than this (more than the digits can reach): the list filters as the person types."""


class TypedFilter(InquirerControl):
    """questionary's list control, filtered on the text `searchable` holds for each option id."""

    searchable: Mapping[object, str] = {}
    translation: Translation = ENGLISH

    @property
    def filtered_choices(self) -> list[Any]:
        typed = _comparable(self.search_filter or "")
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
        _ = self.translation
        shown = self.filtered_choices
        if not self.found_in_search:
            said = _.gettext("no option matches; all shown (Backspace erases)")
        else:
            said = _.ngettext(
                "{count} of {total} option hidden (Backspace erases)",
                "{count} of {total} options hidden (Backspace erases)",
                len(self.choices) - len(shown),
                total=len(self.searchable),
            )
        style = "class:search_success" if self.found_in_search else "class:search_none"
        return [
            ("", "\n"),
            ("class:question-mark", _.gettext("Filter: ")),
            (style, self.search_filter),
            ("class:description", f"  {said}"),
        ]


def filter_as_typed(
    control: InquirerControl,
    layout: Layout,
    searchable: Mapping[str, str],
    translation: Translation,
) -> None:
    """Make the list `control` of `layout` filter on `searchable` (option id → its label and
    description), saying what it hides in `translation`.

    The control is questionary's own, built inside `questionary.select`/`checkbox` and bound to its
    keys, so it changes class in place rather than being replaced; the line under the list that
    shows the filter was given the old class's method, so it gets the new one."""
    control.__class__ = TypedFilter
    assert isinstance(control, TypedFilter)
    control.searchable = {key: _comparable(text) for key, text in searchable.items()}
    control.translation = translation
    for window in layout.find_all_windows():
        shows = window.content
        if (
            isinstance(shows, FormattedTextControl)
            and shows is not control  # the list itself draws with a method of the control too
            and getattr(shows.text, "__self__", None) is control
        ):
            shows.text = control.get_search_string_tokens


def _comparable(text: str) -> str:
    return "".join(text.casefold().split())
