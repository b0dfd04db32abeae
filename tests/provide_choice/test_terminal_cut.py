"""A line wider than the window is cut at its width, ending with `…` (wide characters count two
columns); a line that fits is left alone."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.utils import get_cwidth

from provide_choice._transports._terminal_view._cut import cut_lines, cut_text


def test_a_line_that_fits_is_left_alone() -> None:
    assert cut_text("Language: English", 17) == "Language: English"


def test_a_cut_line_ends_with_an_ellipsis_in_its_last_column() -> None:
    assert cut_text("Push alerts say: The question, its options", 20) == "Push alerts say: Th…"


def test_wide_characters_count_two_columns() -> None:
    cut = cut_text("推送提醒内容：问题、选项和回答的地方", 15)
    assert cut == "推送提醒内容：…"
    assert get_cwidth(cut) <= 15


def test_each_line_of_styled_fragments_is_cut_keeping_its_styles() -> None:
    fragments: StyleAndTextTuples = [
        ("class:pointer", "» "),
        ("class:text", "When time runs out: Return the question's defaults"),
        ("", "\n"),
        ("", "  Done"),
    ]
    cut = cut_lines(fragments, 24)
    assert fragment_list_to_text(cut).splitlines() == ["» When time runs out: R…", "  Done"]
    assert cut[0] == ("class:pointer", "» ")
    assert cut[1][0] == "class:text"
