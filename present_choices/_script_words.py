"""The words of a page's script: the messages it shows, from the catalog, as one JSON.

A script running in the browser cannot call gettext, and words written into it as literals would
stay English. So each script names its messages by key in a `messages.json` beside it (the key,
and the English message: a string, or `[singular, plural]`), and the server sends the page those
messages in every language it has a catalog for (`script_catalogs`), inline as data like the
page's state; the page shows the language the server chose (or, in an app view, the host's).
Babel extracts the messages from the same files (`extract`, named in pyproject.toml's
`[tool.babel]`), so they are in the catalog like any other.

A plural message goes to the script as its form in each of the language's plural categories
(`one`, `other`...), which the script picks with `Intl.PluralRules`: no plural formula runs in it.
Beside its messages, each language says how it writes a countdown (its digits and separator), so
that a page in a language of Latin digits never loads the browser's number data (about 50 ms of
a new tab's start in Chromium).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import IO, Any

from present_choices._locale_format import clock_numbers, plural_forms
from present_choices._translation import Translation, available_locales, translation

MESSAGES_FILE = "messages.json"

Message = str | list[str]
"""One message as a script's file holds it: the English text, or `[singular, plural]`."""
Messages = dict[str, Message]


@cache
def script_messages(package: str) -> Messages:
    """The messages of the scripts in `package` (its `messages.json`), by key, in English."""
    text = (resources.files(package) / MESSAGES_FILE).read_text(encoding="utf-8")
    messages: Messages = json.loads(text)
    return messages


def words_for(messages: Mapping[str, Message], language: Translation) -> dict[str, object]:
    """`messages` in `language`: a string each, or a plural's forms by category."""
    words: dict[str, object] = {}
    for key, message in messages.items():
        if isinstance(message, str):
            words[key] = language.gettext(message)
        else:
            words[key] = plural_forms(message[0], message[1], language)
    return words


def script_catalogs(*packages: str) -> dict[str, dict[str, object]]:
    """The messages of the scripts of `packages`, in every language with a catalog, by language
    tag (`en`, `zh-Hans`), each with how the language writes a countdown (`clock_numbers`): the
    JSON a page carries for its scripts."""
    messages: Messages = {}
    for package in packages:
        messages |= script_messages(package)
    languages = [translation(locale) for locale in available_locales()]
    return {
        language.tag: {"messages": words_for(messages, language), "clock": clock_numbers(language)}
        for language in languages
    }


def markup_words(package: str, language: Translation) -> dict[str, str]:
    """The single messages of `package`'s scripts in `language`, escaped for HTML: what a page's
    template shows before its script runs (the same keys the script translates it with)."""
    return {
        key: html.escape(language.gettext(message))
        for key, message in script_messages(package).items()
        if isinstance(message, str)
    }


def extract(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extractor for a `messages.json`: each message, with the line its key is on (a
    plural as `ngettext`'s two forms)."""
    text = fileobj.read().decode("utf-8")
    data: dict[str, Any] = json.loads(text)
    lines = text.splitlines()
    for key, message in data.items():
        line = next(
            (number for number, line in enumerate(lines, start=1) if f'"{key}":' in line), 0
        )
        if isinstance(message, str):
            yield line, "gettext", message, []
        else:
            yield line, "ngettext", (message[0], message[1]), []
