"""Which language a surface speaks, from the tags it knows, and the words it then shows."""

from __future__ import annotations

from datetime import datetime

import pytest

from present_choices._locale_format import (
    format_date_time,
    format_duration,
    format_list,
    format_moment,
    language_names,
    plural_forms,
)
from present_choices._translation import (
    ENGLISH,
    accepted_languages,
    chosen,
    environment_languages,
    negotiate,
    translation,
    valid_tag,
)

CHINESE = translation("zh_Hans")


@pytest.mark.parametrize(
    "tag", ["zh", "zh-CN", "zh-SG", "zh-Hans", "zh_CN.UTF-8", "zh-Hans-CN", "ZH-cn", "zh-MY"]
)
def test_these_tags_pick_simplified_chinese(tag: str) -> None:
    assert negotiate([tag]).locale == "zh_Hans"
    assert negotiate([tag]).tag == "zh-Hans"


@pytest.mark.parametrize(
    "tag", ["zh-TW", "zh-HK", "zh-Hant", "fr-FR", "en-US", "C", "C.UTF-8", "POSIX", "", "*"]
)
def test_tags_without_a_catalog_fall_back_to_english(tag: str) -> None:
    assert negotiate([tag]) is ENGLISH


def test_the_first_tag_with_a_catalog_wins() -> None:
    assert negotiate(["fr-FR", "zh-TW", "zh-CN", "en"]).locale == "zh_Hans"
    assert negotiate(["en-GB", "zh-CN"]) is ENGLISH


def test_accept_language_is_read_by_weight() -> None:
    header = "fr-FR,fr;q=0.9,zh-CN;q=0.95,en;q=0.8,de;q=0,*;q=0.1"
    assert accepted_languages(header) == ["fr-FR", "zh-CN", "fr", "en"]
    assert accepted_languages(None) == []
    assert negotiate(accepted_languages("en-US,en;q=0.9,zh-CN;q=0.8")) is ENGLISH


def test_the_terminal_variables_are_read_as_text_in_posix_order() -> None:
    assert environment_languages({"LANG": "zh_CN.UTF-8"}) == ["zh_CN.UTF-8"]
    assert environment_languages({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}) == [
        "en_US.UTF-8"
    ]
    assert environment_languages({"LANG": "en_US", "LC_ALL": "zh_SG.UTF-8"}) == ["zh_SG.UTF-8"]
    assert environment_languages({"LC_ALL": "", "LANG": "C.UTF-8"}) == ["C.UTF-8"]
    assert environment_languages({}) == []


def test_the_setting_wins_over_the_surface() -> None:
    assert chosen("en", ["zh-CN"]) is ENGLISH
    assert chosen("zh-CN", ["en-US"]).locale == "zh_Hans"
    assert chosen("auto", ["zh-CN"]).locale == "zh_Hans"
    assert chosen("fr", ["zh-CN"]) is ENGLISH  # the person's choice, in English until it ships


def test_tags_the_setting_takes() -> None:
    assert all(valid_tag(tag) for tag in ["en", "zh-Hans", "zh_CN", "pt-BR", "zh-Hans-CN"])
    assert not any(valid_tag(tag) for tag in ["", "e", "zh-", "english!", "<b>", "auto auto"])


def test_a_message_without_a_translation_is_english_and_placeholders_are_filled() -> None:
    assert CHINESE.gettext("Choose one") == "请选择一项"
    assert CHINESE.gettext("A message no catalog holds {n}", n=3) == "A message no catalog holds 3"
    assert CHINESE.ngettext("{rule} ({count} chosen)", "{rule} ({count} chosen)", 2, rule="R") == (
        "R（已选 2 项）"
    )
    assert ENGLISH.ngettext("Keep {count} option", "Keep {count} options", 1) == "Keep 1 option"


def test_numbers_lists_and_times_are_the_languages_own() -> None:
    moment = datetime(2026, 12, 3, 15, 4)
    assert format_date_time(moment, CHINESE) == "2026/12/3 15:04"
    assert format_date_time(moment, ENGLISH).startswith("12/3/2026, 3:04")
    assert format_moment(moment, CHINESE, datetime(2026, 12, 4)) == "12月3日 15:04"
    assert format_moment(moment, CHINESE, moment) == "15:04"
    assert format_duration(299, CHINESE) == "5分钟"
    assert format_duration(299, ENGLISH) == "5 minutes"
    assert format_list(["甲", "乙", "丙"], CHINESE, "or") == "甲、乙或丙"
    assert format_list(["a", "b", "c"], ENGLISH, "or") == "a, b, or c"


def test_a_script_gets_a_plurals_form_by_category() -> None:
    assert plural_forms("{count} option", "{count} options", ENGLISH) == {
        "one": "{count} option",
        "other": "{count} options",
    }
    assert set(plural_forms("Keep at least {count} option visible", "x", CHINESE)) == {"other"}


def test_each_language_is_named_in_its_own() -> None:
    assert dict(language_names()) == {"en": "English", "zh-Hans": "中文 (简体)"}
