"""The chat's language: the one it was given (`choices-chat --lang TAG`, `ChatView(language=...)`),
else the browser's, as its `Accept-Language` says it.

The words of the chat itself (the composer, the buttons, its notices) are said in it; what the agent
writes is shown as written. An agent's own words for the person (a greeting, a failure) are said in
the language of the conversation it replies to: the chat speaks it around each reply
(`present_choices._translation.speaking`), so an agent that serves many conversations at once says
each one's in its own.
"""

from __future__ import annotations

import copy
import weakref
from typing import cast, get_args

from nicegui import Client, context
from nicegui.language import Language

from present_choices._translation import Translation, accepted_languages, negotiate, spoken

_languages: weakref.WeakKeyDictionary[Client, Translation] = weakref.WeakKeyDictionary()
"""The language of the chat on each page (each browser tab's client)."""


def chat_translation(language: str | None) -> Translation:
    """The language of the chat on the page being built: `language` when given, else the
    browser's; English where no catalog fits."""
    if language is not None:
        return negotiate([language])
    try:
        header = context.client.request.headers.get("accept-language")
    except RuntimeError:  # a client made without a request (a test's)
        header = None
    return negotiate(accepted_languages(header))


QUASAR_NAMES = {"zh-Hans": "zh-CN", "en": "en-US"}
"""Quasar's name of a language of ours where it has no name of the same tag (it writes its name
into `<html lang>`, and says its own few words, a table's pagination, in it)."""


def speak_in_page(translation: Translation) -> None:
    """Name `translation`'s language in the `<html lang>` of the page being built: its own copy of
    the page's settings, since another browser of the same page may read another language."""
    known: tuple[str, ...] = get_args(Language)
    tag = QUASAR_NAMES.get(translation.tag, translation.tag)
    named = (
        tag if tag in known else next((name for name in known if name.startswith(f"{tag}-")), tag)
    )
    client = context.client
    page = copy.copy(client.page)
    page.language = cast(Language, named)
    client.page = page


def speak_in_client(translation: Translation) -> None:
    """The chat on the page being built speaks `translation`: its elements ask `chat_words`."""
    _languages[context.client] = translation


def chat_words() -> Translation:
    """The words of the chat whose element is being built: its page's language (English on a page
    that set none), or the conversation's being answered, outside any page."""
    try:
        client = context.client
    except RuntimeError:  # no element is being built: a reply's own task
        return spoken()
    return _languages.get(client, spoken())
