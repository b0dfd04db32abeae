"""The terminal list's parts that need no terminal: a preview cut to its room, and a long list's
filter (what it matches, what it keeps in view, what its line says)."""

from __future__ import annotations

import questionary
from prompt_toolkit.formatted_text import fragment_list_to_text

from present_choices._translation import ENGLISH
from provide_choice._contract._request import ProvideChoiceOption
from provide_choice._transports._terminal_view._filter import filter_as_typed
from provide_choice._transports._terminal_view._keys import list_control
from provide_choice._transports._terminal_view._markdown import markdown_text
from provide_choice._transports._terminal_view._preview import (
    fitted_preview,
    line_count,
    option_preview,
)


def test_a_preview_that_fits_is_drawn_whole() -> None:
    preview = markdown_text("```\none\ntwo\n```")
    assert fitted_preview(preview, 80, 10, ENGLISH) == preview


def test_a_long_preview_is_cut_at_a_line_and_says_how_many_lines_it_left_out() -> None:
    preview = markdown_text("```\n" + "\n".join(f"line {n}" for n in range(20)) + "\n```")
    shown = fragment_list_to_text(fitted_preview(preview, 80, 5, ENGLISH)).split("\n")
    assert shown == [
        "  line 0",
        "  line 1",
        "  line 2",
        "  line 3",
        "… 16 more lines (a taller window shows them)",
    ]


def test_wrapped_lines_count_as_the_rows_they_take() -> None:
    assert line_count([("", "x" * 25 + "\n" + "y")], 10) == 4
    preview = [("", "x" * 25 + "\ny\nz\n")]
    shown = fragment_list_to_text(fitted_preview(preview, 10, 4, ENGLISH))
    assert shown == "x" * 25 + "\n… 2 more lines (a taller window shows them)"


def test_no_room_no_preview_and_no_preview_nothing_drawn() -> None:
    assert fitted_preview(markdown_text("one\n\ntwo"), 80, 1, ENGLISH) == []
    assert option_preview(ProvideChoiceOption(id="plain", label="Plain"), ENGLISH) == []
    titled = option_preview(
        ProvideChoiceOption(id="diff", label="Diff", preview="`+ dark`"), ENGLISH
    )
    assert fragment_list_to_text(titled).split("\n")[:2] == ["Preview · Diff", "+ dark"]


def long_list() -> questionary.Question:
    choices = [questionary.Choice([("", f"Region {n}")], f"r{n}") for n in range(12)]
    return questionary.checkbox("Where?", choices, use_search_filter=True, use_jk_keys=False)


def test_the_filter_matches_labels_and_descriptions_without_spaces_and_counts_the_hidden() -> None:
    question = long_list()
    control = list_control(question.application.layout)
    assert control is not None
    searchable = {f"r{n}": f"Region {n}" + (" — cold storage" if n == 4 else "") for n in range(12)}
    filter_as_typed(control, question.application.layout, searchable, ENGLISH)
    for character in "region1":
        control.add_search_character(character)  # type: ignore[arg-type]
    assert [choice.value for choice in control.filtered_choices] == ["r1", "r10", "r11"]
    said = fragment_list_to_text(control.get_search_string_tokens())
    assert "9 of 12 options hidden" in said
    control.search_filter = "COLD"
    assert [choice.value for choice in control.filtered_choices] == ["r4"]


def test_a_filter_that_matches_nothing_shows_every_option_and_says_so() -> None:
    question = long_list()
    control = list_control(question.application.layout)
    assert control is not None
    filter_as_typed(
        control, question.application.layout, {f"r{n}": f"Region {n}" for n in range(12)}, ENGLISH
    )
    control.search_filter = "mars"
    assert len(control.filtered_choices) == 12
    assert "no option matches; all shown" in fragment_list_to_text(
        control.get_search_string_tokens()
    )
