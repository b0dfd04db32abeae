"""Every message a person reads is in every language we ship, whole and compiled.

The messages are extracted from the code as `make catalogs` extracts them (scripts/extract-messages:
Python and the pages' messages.json), so a message added without a translation fails here, named,
before anyone sees English in the middle of a Chinese screen. A translation must keep its
message's placeholders (`{count}`: a missing one loses a number, an unknown one breaks the
formatting), and the compiled catalogs must be those of the .po files (`make` compiles them).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from present_choices._translation import DOMAIN, available_locales, locales_folder, translation

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SHIPPED = sorted(
    path.parent.parent.name for path in locales_folder().glob(f"*/LC_MESSAGES/{DOMAIN}.po")
)


def _catalog(locale: str) -> Catalog:
    path = locales_folder() / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def _ids(message: Message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


@pytest.fixture(scope="module")
def source_messages(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The messages of the code as it is now."""
    template = tmp_path_factory.mktemp("catalogs") / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(ROOT / "scripts" / "extract-messages"), str(pybabel), str(template)], check=True
    )
    with template.open("rb") as file:
        return read_po(file)


def test_simplified_chinese_ships() -> None:
    assert "zh_Hans" in SHIPPED
    assert "zh_Hans" in available_locales(), "the catalogs are not compiled: run make"


@pytest.mark.parametrize("locale", SHIPPED)
def test_every_message_of_the_code_has_a_translation(source_messages: Catalog, locale: str) -> None:
    catalog = _catalog(locale)
    missing = [
        message.id
        for message in source_messages
        if message.id
        and (
            (translated := catalog.get(message.id)) is None
            or translated.fuzzy
            or not all(_forms(translated))
        )
    ]
    assert not missing, (
        f"{len(missing)} messages have no {locale} translation (run `make catalogs`, then "
        f"translate them in its .po): {missing[:20]}"
    )


@pytest.mark.parametrize("locale", SHIPPED)
def test_translations_keep_the_placeholders_of_their_message(locale: str) -> None:
    wrong = []
    for message in _catalog(locale):
        if not message.id:
            continue
        wanted = set().union(*(PLACEHOLDER.findall(text) for text in _ids(message)))
        for form in _forms(message):
            if form and set(PLACEHOLDER.findall(form)) - {"count"} != wanted - {"count"}:
                wrong.append((message.id, form))
    assert not wrong


@pytest.mark.parametrize("locale", SHIPPED)
def test_the_compiled_catalog_is_the_translated_one(locale: str) -> None:
    """A .po changed since `make` compiled it would show the old words."""
    language = translation(locale)
    stale = [
        message.id
        for message in _catalog(locale)
        if isinstance(message.id, str)
        and message.id
        and message.string
        and language.catalog.gettext(message.id) != message.string
    ]
    assert not stale, f"the compiled {locale} catalog is older than its .po: run make ({stale[:5]})"
