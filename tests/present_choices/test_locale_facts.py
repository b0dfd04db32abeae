"""The facts the build reads of CLDR for the pages (plural rules, a countdown's digits, each
language's own name): the same as Babel's, and a page's words need no more of Babel's data."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.lists import format_list as babel_list

from present_choices._locale_facts import FACTS_FILE, ListStyle, catalog_locales, facts_of
from present_choices._locale_format import (
    _built_facts,
    _facts,
    clock_numbers,
    format_list,
    language_names,
    plural_forms,
)
from present_choices._translation import locales_folder, translation


def test_the_built_facts_are_babels_for_english_and_every_catalog() -> None:
    folder = locales_folder()
    built = json.loads((folder / FACTS_FILE).read_text(encoding="utf-8"))
    assert sorted(built) == sorted(catalog_locales(folder)) == ["en", "zh_Hans"]
    assert built == {name: facts_of(name) for name in catalog_locales(folder)}


def test_read_from_the_facts_the_pages_words_are_what_babel_gives() -> None:
    for name in catalog_locales(locales_folder()):
        locale, language = Locale.parse(name), translation(name)
        forms = plural_forms("{n} minute left", "{n} minutes left", language)
        assert sorted(forms) == sorted({locale.plural_form(n) for n in range(200)})
        digits = locale.default_numbering_system
        assert clock_numbers(language) == {
            "digits": digits,
            "separator": locale.number_symbols[digits].get("timeSeparator", ":"),
        }
    assert language_names() == (("en", "English"), ("zh-Hans", "中文 (简体)"))


@pytest.mark.parametrize("style", ["standard", "or"])
def test_lists_are_joined_as_babel_joins_them(style: ListStyle) -> None:
    for name in catalog_locales(locales_folder()):
        for count in range(6):
            items = [f"item {number}" for number in range(count)]
            joined = format_list(items, translation(name), style)
            assert joined == babel_list(items, style=style, locale=name)


def test_a_page_and_its_settings_load_none_of_babels_language_data() -> None:
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "from provide_choice._transports._web._page import page_words\n"
            "from provide_choice._contract._setting_labels import setting_choices\n"
            "from present_choices._translation import translation\n"
            "page_words()\n"
            "for name in ('en', 'zh_Hans'): setting_choices(translation(name))\n"
            "import babel.localedata\n"
            "print(sorted(babel.localedata._cache))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == "[]"


@pytest.fixture
def facts_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder whose facts file the test writes, read instead of the build's."""
    monkeypatch.setattr("present_choices._locale_format.locales_folder", lambda: tmp_path)
    _built_facts.cache_clear()
    _facts.cache_clear()
    yield tmp_path
    _built_facts.cache_clear()
    _facts.cache_clear()


@pytest.mark.parametrize(
    "written",
    [None, "not json", json.dumps({"en": {"digits": "latn"}}), json.dumps({"en": "latn"})],
    ids=["no file", "not JSON", "a fact missing (an older build)", "not facts"],
)
def test_without_usable_facts_babel_says_them(facts_folder: Path, written: str | None) -> None:
    if written is not None:
        (facts_folder / FACTS_FILE).write_text(written, encoding="utf-8")
    english = translation("en")
    assert clock_numbers(english) == {"digits": "latn", "separator": ":"}
    assert format_list(["A", "B", "C"], english, "or") == "A, B, or C"
