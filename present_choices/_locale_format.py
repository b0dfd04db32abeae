"""Numbers, lists and times in the person's language, as Babel formats them from CLDR's data.

A date written `2026-12-03 15:04` everywhere, or options listed "A, B and C" in Chinese, would read
as foreign as an untranslated word; the catalogs hold sentences, and Babel fills in the parts whose
shape is the language's own: dates and times, durations ("5 minutes", "5分钟"), lists ("A, B, or
C", "A、B或C"). Lists, and for a page's script which plural form a number takes, how a countdown
is written and each language's name, come from the facts the build read of CLDR (`_locale_facts`).

Babel loads its locale data when first asked, so it is imported inside each function: importing
this module costs nothing, and a surface that formats nothing (a page) never loads that data.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING

from present_choices._locale_facts import FACTS_FILE, ListStyle, LocaleFacts, facts_of, joined
from present_choices._translation import Translation, available_locales, locales_folder

if TYPE_CHECKING:
    from babel import Locale

PLURAL_SAMPLES = (*range(0, 200), 0.5, 1.5)
"""Numbers tried to find each plural category of a language and the gettext form it takes."""


@cache
def _locale(name: str) -> Locale:
    # Deferred for start-up time: Babel and its locale data load only when something is formatted.
    from babel import Locale

    return Locale.parse(name)


@cache
def _built_facts() -> dict[str, LocaleFacts]:
    """The facts the build wrote, by locale; none where it wrote no file (a checkout not built)."""
    try:
        text = (locales_folder() / FACTS_FILE).read_text(encoding="utf-8")
        facts: dict[str, LocaleFacts] = json.loads(text)
    except (OSError, ValueError):
        return {}
    return facts


@cache
def _facts(name: str) -> LocaleFacts:
    """The facts of locale `name`: the build's, else Babel's now (a language added since)."""
    built = _built_facts().get(name)
    # A file an older build wrote may lack a fact this version reads.
    if isinstance(built, dict) and LocaleFacts.__required_keys__ <= built.keys():
        return built
    return facts_of(name)


def format_date_time(moment: datetime, translation: Translation) -> str:
    """A date with its year and a time, short, for a table: `12/3/2026, 3:04 PM`,
    `2026/12/3 15:04`."""
    return _day_and_time("yMd", moment, translation)


def format_moment(moment: datetime, translation: Translation, now: datetime) -> str:
    """When something happened, as short as it can be told: the time alone today, else the day
    and the time (`3:04 PM`, `Dec 3, 3:04 PM`, `12月3日 15:04`)."""
    if moment.date() == now.date():
        # Deferred for start-up time, as `_locale`.
        from babel.dates import format_time

        return str(format_time(moment, "short", locale=_locale(translation.locale)))
    return _day_and_time("MMMd", moment, translation)


def _day_and_time(skeleton: str, moment: datetime, translation: Translation) -> str:
    """The day (a CLDR skeleton: which fields, the locale orders them) and the short time, joined
    as the locale joins a short date and time."""
    # Deferred for start-up time, as `_locale`.
    from babel.dates import format_skeleton, format_time

    locale = _locale(translation.locale)
    day = format_skeleton(skeleton, moment, locale=locale)
    time = format_time(moment, "short", locale=locale)
    return str(locale.datetime_formats["short"]).format(time, day)


def format_duration(seconds: float, translation: Translation) -> str:
    """A time left, rounded as people say it: "5 minutes", "1 hour", "5分钟"."""
    # Deferred for start-up time, as `_locale`.
    from babel.dates import format_timedelta

    return str(
        format_timedelta(timedelta(seconds=max(seconds, 0)), locale=_locale(translation.locale))
    )


def format_list(
    items: Sequence[str], translation: Translation, style: ListStyle = "standard"
) -> str:
    """Items in one phrase, as the language lists them: "A, B, and C", "A、B和C" (`or`: "A, B, or
    C")."""
    return joined(list(items), _facts(translation.locale)["lists"][style])


def plural_forms(singular: str, plural: str, translation: Translation) -> dict[str, str]:
    """The message in each plural category of the language (CLDR's `one`, `few`, `other`...),
    for a page script that picks one with `Intl.PluralRules`: the gettext form each category's
    numbers take. Placeholders stay unfilled."""
    # Deferred for start-up time, as `_locale`; the rules alone load no locale data.
    from babel.plural import PluralRule

    forms: dict[str, str] = {}
    rule = PluralRule(_facts(translation.locale)["plural"])
    for number in PLURAL_SAMPLES:
        category = rule(number)
        if category not in forms:
            count = int(number) if float(number).is_integer() else 2
            forms[category] = translation.catalog.ngettext(singular, plural, count)
    return forms


def clock_numbers(translation: Translation) -> dict[str, str]:
    """How the language writes a countdown's "4:59", for a page script: the numbering system of
    its digits (CLDR's `latn`, `arab`...) and the separator between minutes and seconds."""
    facts = _facts(translation.locale)
    return {"digits": facts["digits"], "separator": facts["separator"]}


@cache
def language_names() -> tuple[tuple[str, str], ...]:
    """Each language with a catalog (English too), by its tag, named in its own language
    ("English", "中文 (简体)"): a person finds theirs in a list whatever language it is shown in."""
    names = []
    for locale in available_locales():
        name = _facts(locale)["name"]
        names.append((locale.replace("_", "-"), name[:1].upper() + name[1:]))
    return tuple(names)
