"""The person's language: which catalog a surface speaks, and its words.

Every surface of the toolkit (the chat, the page, the app views, the inbox, the terminals, the
command line) shows a person words of ours, and each knows the person's language its own way: a
browser's `Accept-Language`, a host's locale, the variables `LC_ALL`, `LC_MESSAGES` and `LANG`.
They all ask here, so that one tag means one language everywhere: `negotiate` takes the tags a
surface knows, best first, and returns the `Translation` of the first one with a catalog, else
English, the language the messages are written in. `zh`, `zh-CN`, `zh-SG` and `zh-Hans` pick
Simplified Chinese (`zh_Hans`); `zh-TW` and `zh-Hant` do not, as no catalog of ours is
Traditional.

The catalogs are one gettext domain, compiled by Babel from `locales/<locale>/LC_MESSAGES/*.po`
beside this module; a language is one catalog there. A message the catalog lacks is shown in
English, message by message. Only the standard library loads here: what formats numbers and
times (Babel) is `_locale_format`'s, imported where it is used.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from pathlib import Path

from present_choices._locale_facts import DOMAIN, SOURCE_LOCALE

AUTO = "auto"
"""The setting `language` for "as the surface says" (the browser's, the terminal's)."""
ENVIRONMENT_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where a terminal's language is read, the first one set winning (POSIX order). Read as text:
a machine need not have the locale installed for its person to read the language."""
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*")
"""A language tag as the setting and `--lang` take it: `en`, `zh-Hans`, `zh_CN`, `pt-BR`."""
TRADITIONAL_REGIONS = frozenset({"tw", "hk", "mo"})
"""Where Chinese written without a script subtag is Traditional; elsewhere it is Simplified."""


def N_(message: str) -> str:
    """Marks a message for the catalog where it is defined (a label in a table) and returns it
    untranslated: the surface that shows it translates it then, in the person's language."""
    return message


class Translation:
    """The words of one language: `gettext` and `ngettext` fill named placeholders
    (`{count}`), `tag` names the language for `<html lang>` and the page scripts, `locale` for
    Babel's formats."""

    def __init__(self, locale: str, catalog: gettext.NullTranslations) -> None:
        self.locale = locale
        self.tag = locale.replace("_", "-")
        self.catalog = catalog
        """The compiled messages (gettext's), English where they have none."""

    def __repr__(self) -> str:
        return f"Translation({self.locale!r})"

    def gettext(self, message: str, /, **values: object) -> str:
        """`message` in this language (in English when the catalog lacks it), its `{name}`
        placeholders filled from `values`."""
        translated = self.catalog.gettext(message)
        return translated.format(**values) if values else translated

    def ngettext(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The form of the message for `count` in this language; `{count}` and the other
        placeholders are filled."""
        return self.catalog.ngettext(singular, plural, count).format(count=count, **values)


ENGLISH = Translation(SOURCE_LOCALE, gettext.NullTranslations())
"""The words as written: for what the agent reads, and where no catalog fits."""


_spoken: ContextVar[Translation] = ContextVar("spoken", default=ENGLISH)


def spoken() -> Translation:
    """The language of the conversation being answered (`speaking`), English outside one: for
    code that words something for a person but serves many of them at once (an agent)."""
    return _spoken.get()


@contextmanager
def speaking(translation: Translation) -> Iterator[None]:
    """Speak `translation` in this task, and in the tasks it starts, until the block ends."""
    token = _spoken.set(translation)
    try:
        yield
    finally:
        _spoken.reset(token)


def locales_folder() -> Path:
    """Where the compiled catalogs are, one folder per locale (`zh_Hans/LC_MESSAGES`)."""
    return Path(str(resources.files("present_choices") / "locales"))


@cache
def available_locales() -> tuple[str, ...]:
    """The locales with a compiled catalog, and English: `("en", "zh_Hans")`."""
    folder = locales_folder()
    compiled = sorted(path.parent.parent.name for path in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LOCALE, *(locale for locale in compiled if locale != SOURCE_LOCALE))


@cache
def translation(locale: str) -> Translation:
    """The translation of `locale`, one of `available_locales()` (any other is English)."""
    if locale == SOURCE_LOCALE or locale not in available_locales():
        return ENGLISH
    path = locales_folder() / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as file:
        return Translation(locale, gettext.GNUTranslations(file))


def candidates(tag: str) -> list[str]:
    """The locale names that could serve `tag`, most specific first, lower case: `zh-CN` gives
    `zh_hans_cn`, `zh_hans`, `zh_cn`, `zh`. A POSIX value (`zh_CN.UTF-8@euro`) is a tag too;
    `C` and `POSIX` name no language."""
    parts = re.split(r"[-_]", tag.split(".")[0].split("@")[0].strip().lower())
    language = parts[0]
    if not re.fullmatch(r"[a-z]{2,3}", language):
        return []
    script = next((part for part in parts[1:] if len(part) == 4 and part.isalpha()), None)
    region = next(
        (part for part in parts[1:] if len(part) == 2 or (len(part) == 3 and part.isdigit())),
        None,
    )
    if language == "zh" and script is None:
        script = "hant" if region in TRADITIONAL_REGIONS else "hans"
    names = [
        "_".join(part for part in (language, script, region) if part),
        "_".join(part for part in (language, script) if part),
        "_".join(part for part in (language, region) if part),
        language,
    ]
    return list(dict.fromkeys(names))


def negotiate(tags: Iterable[str]) -> Translation:
    """The translation of the first of `tags` (best first) that a catalog serves; English when
    none does."""
    available = {locale.lower(): locale for locale in available_locales()}
    for tag in tags:
        for name in candidates(tag):
            if name in available:
                return translation(available[name])
    return ENGLISH


def chosen(setting: str, signal: Iterable[str]) -> Translation:
    """The language a surface speaks: the person's setting `language` when it names one (a tag
    without a catalog means English), else the surface's own `signal`, best first."""
    if setting != AUTO:
        return negotiate([setting])
    return negotiate(signal)


def accepted_languages(header: str | None) -> list[str]:
    """The tags of an `Accept-Language` header, most wanted first (`q` weights; ties keep their
    order); `*` and refused (`q=0`) ones left out."""
    weighted: list[tuple[float, int, str]] = []
    for index, item in enumerate((header or "").split(",")):
        tag, _, parameters = item.strip().partition(";")
        weight = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", parameters)
        if match:
            try:
                weight = float(match.group(1))
            except ValueError:
                weight = 0.0
        if tag.strip() and tag.strip() != "*" and weight > 0:
            weighted.append((-weight, index, tag.strip()))
    return [tag for _weight, _index, tag in sorted(weighted)]


def environment_languages(environment: Mapping[str, str] | None = None) -> list[str]:
    """The terminal's language as the POSIX variables say it: the first of `LC_ALL`,
    `LC_MESSAGES` and `LANG` that is set (an empty list when none is)."""
    environment = os.environ if environment is None else environment
    for name in ENVIRONMENT_VARIABLES:
        value = environment.get(name, "").strip()
        if value:
            return [value]
    return []


def terminal_translation(setting: str = AUTO) -> Translation:
    """The language of a terminal surface (the terminals' screens, the command line): the
    person's setting, else the terminal's variables."""
    return chosen(setting, environment_languages())


def valid_tag(tag: str) -> bool:
    """Whether `tag` is written as a language tag (`auto` aside): letters, then subtags."""
    return LANGUAGE_TAG.fullmatch(tag) is not None
