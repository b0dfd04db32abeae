"""What a page needs to know of each language, read from CLDR's data (through Babel) when the
catalogs are compiled, not by every server: how a number picks its plural category, how a countdown
is written, how a list is joined ("A, B, or C"), and the language's name in itself.

Babel's data for one language is several megabytes once loaded, and a page needs only these few
facts of it. The build writes them for English and every language with a catalog into one file
beside the catalogs (`FACTS_FILE`, as it compiles the .mo files; `make` keeps it current), and
`_locale_format` reads that file; a language the file lacks (a checkout whose catalogs changed since)
has its facts read from Babel then, the same facts, only slower.

This module imports nothing of the package: the build loads it by its path.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Literal, TypedDict

FACTS_FILE = "facts.json"
"""The file of every language's facts, in the folder of the catalogs."""
DOMAIN = "agent_choices"
"""The one gettext domain of the distribution: every package's messages are in it."""
SOURCE_LOCALE = "en"
"""The language the messages are written in; it needs no catalog."""
ListStyle = Literal["standard", "or"]
LIST_STYLES: tuple[ListStyle, ...] = ("standard", "or")


class LocaleFacts(TypedDict):
    """One language's facts: `plural`, CLDR's rule of each plural category but `other` (which
    `babel.plural.PluralRule` reads); `digits`, the numbering system of its digits (`latn`,
    `arab`...); `separator`, between a countdown's minutes and seconds; `lists`, CLDR's patterns
    joining a list in each style (`2`: two items; `start`, `middle`, `end`: more); `name`, its
    name in itself."""

    plural: dict[str, str]
    digits: str
    separator: str
    lists: dict[ListStyle, dict[str, str]]
    name: str


def facts_of(name: str) -> LocaleFacts:
    """The facts of locale `name` (`en`, `zh_Hans`), from Babel's data."""
    # Deferred: only the build, and a language the facts file lacks, load Babel's data.
    from babel import Locale

    locale = Locale.parse(name)
    digits = str(locale.default_numbering_system)
    return {
        "plural": dict(locale.plural_form.rules),
        "digits": digits,
        "separator": str(locale.number_symbols.get(digits, {}).get("timeSeparator", ":")),
        "lists": {style: dict(locale.list_patterns[style]) for style in LIST_STYLES},
        "name": str(locale.get_display_name(locale) or name),
    }


def joined(items: list[str], patterns: dict[str, str]) -> str:
    """`items` in one phrase, as CLDR's list `patterns` of a language and style join them."""
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2 and "2" in patterns:
        return patterns["2"].format(*items)
    phrase = patterns["start"].format(items[0], items[1])
    for item in items[2:-1]:
        phrase = patterns["middle"].format(phrase, item)
    return patterns["end"].format(phrase, items[-1])


def catalog_locales(folder: Path) -> list[str]:
    """English, and each language with a catalog (a .po file) in `folder`."""
    found = sorted(path.parent.parent.name for path in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return [SOURCE_LOCALE, *(name for name in found if name != SOURCE_LOCALE)]


def write_facts(path: Path, locales: Iterable[str]) -> None:
    """The facts of `locales`, written as the facts file at `path`."""
    facts = {name: facts_of(name) for name in locales}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(facts, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":  # `python present_choices/_locale_facts.py present_choices/locales`
    catalogs = Path(sys.argv[1])
    write_facts(catalogs / FACTS_FILE, catalog_locales(catalogs))
