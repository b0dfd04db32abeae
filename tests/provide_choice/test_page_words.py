"""The pages' words come from the catalog, never from the scripts or templates themselves.

Each page (the question's page, the two app views, the inbox) shows words of ours from the
`messages.json` of its parts, as the catalogs translate them. Here: every key a script or template
names is a message of that page; every message is used; no script or template holds a
person-facing sentence of its own (a check over their string literals and text, which would show
English in the middle of a Chinese page); and words.js picks the host's language as the server
would pick it from the same tag.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from gettext import NullTranslations
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from present_choices._locale_format import clock_numbers
from present_choices._script_words import script_messages
from present_choices._translation import Translation, negotiate
from provide_choice._bridge._local_http import WORDS_SCRIPT, words_json

ROOT = Path(__file__).parents[2]
PACKAGES = ROOT / "provide_choice"
QUESTION_VIEW = "provide_choice._transports._question_view"
WEB = "provide_choice._transports._web"
APP = "provide_choice._transports._app"
INBOX = "provide_choice._history._inbox"
BRIDGE_FOLDER = "provide_choice._bridge"
RUNNER = Path(__file__).parents[1] / "support" / "words_script.mjs"


class Document(NamedTuple):
    """A page: its scripts and templates (paths under provide_choice/), and whose messages it has."""

    scripts: tuple[str, ...]
    templates: tuple[str, ...]
    messages: tuple[str, ...]


QUESTION_SCRIPTS = tuple(
    f"_transports/_question_view/script/{name}.js"
    for name in (
        "dom", "answer", "questions", "preview", "keys", "options", "form", "settings",
        "countdown", "channel", "question",
    )
)  # fmt: skip
DOCUMENTS = {
    "page": Document(
        ("_bridge/words.js", *QUESTION_SCRIPTS, "_transports/_web/main.js"),
        (
            "_transports/_question_view/question.html",
            "_transports/_web/page.html",
            "_transports/_web/notice.html",
        ),
        (QUESTION_VIEW, WEB),
    ),
    "provide_choice app": Document(
        (
            "_bridge/words.js",
            *QUESTION_SCRIPTS,
            "_transports/_app/view/host.js",
            "_transports/_app/view/asking.js",
        ),
        ("_transports/_question_view/question.html", "_transports/_app/provide_choice.html"),
        (QUESTION_VIEW, APP),
    ),
    "present_choices app": Document(
        (
            "_bridge/words.js",
            "_transports/_question_view/script/dom.js",
            "_transports/_app/view/host.js",
            "_transports/_app/view/choices.js",
        ),
        ("_transports/_app/present_choices.html",),
        (APP,),
    ),
    "inbox": Document(
        ("_bridge/words.js", "_history/_inbox/inbox.js"), ("_history/_inbox/inbox.html",), (INBOX,)
    ),
}
SCRIPT_KEY = re.compile(r'(?:\.t|\.n)\(\s*"(\w+)"')
TEMPLATE_KEY = re.compile(r"""data-words="(\w+)"|\$(\w+)""")
STRING = re.compile(r""""((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`""")
PROSE = re.compile(r"[A-Z][a-z]{3,}|[a-z]+ [a-z]+ [a-z]+|…|[a-z][.:;!?] ")
"""A capitalized word, three words in a row, an ellipsis, a sentence's stop: words for a person
(class names and selectors are one or two lowercase words)."""
NOT_PROSE = {"Enter", "Arrow", "Content-Type", "DOMContentLoaded", "Notification"}
"""Literals that look like words but are names: keys of the keyboard, a header, an event, an API."""
TO_THE_HOST = re.compile(r"\$\{message\.method\} is not handled")
"""The one sentence a script writes for a program: the JSON-RPC error to a host (host.js)."""
TEMPLATE_TEXT = re.compile(r"\$\w+|provide-choice|present-choices|·|—")
"""What a template's text may hold: placeholders the server fills from the catalog, the names."""


def text_of(path: str) -> str:
    return (PACKAGES / path).read_text(encoding="utf-8")


def without_comments(script: str) -> str:
    script = re.sub(r"/\*.*?\*/", "", script, flags=re.DOTALL)
    return re.sub(r"^\s*//.*$|\s//\s.*$", "", script, flags=re.MULTILINE)


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_word_a_page_names_is_one_of_its_messages_and_every_message_is_used(
    name: str,
) -> None:
    document = DOCUMENTS[name]
    messages: dict[str, object] = {}
    for package in document.messages:
        messages |= script_messages(package)
    scripts = [text_of(path) for path in document.scripts]
    templates = [text_of(path) for path in document.templates]
    named = {match.group(1) for script in scripts for match in SCRIPT_KEY.finditer(script)}
    named |= {
        key
        for template in templates
        for match in TEMPLATE_KEY.finditer(template)
        for key in match.groups()
        if key
    }
    fills = {"title", "prompt", "question", "state", "words", "style", "script", "language"}
    # The notice page's (no question here, or none reachable), from the catalog in Python.
    fills |= {"heading", "text", "role", "refresh"}
    assert named - fills - set(messages) == set(), "keys with no message"
    literals = " ".join(scripts + templates)
    unused = [key for key in messages if f'"{key}"' not in literals and f"${key}" not in literals]
    assert unused == [] or name in ("provide_choice app", "present_choices app"), unused


def test_every_message_of_the_apps_is_used_by_one_of_them() -> None:
    sources = " ".join(
        text_of(path)
        for name in ("provide_choice app", "present_choices app")
        for path in (*DOCUMENTS[name].scripts, *DOCUMENTS[name].templates)
    )
    unused = [key for key in script_messages(APP) if f'"{key}"' not in sources]
    assert unused == []


@pytest.mark.parametrize(
    "path", sorted({path for document in DOCUMENTS.values() for path in document.scripts})
)
def test_no_script_writes_words_of_its_own(path: str) -> None:
    """Every sentence a person reads comes from the page's words: a literal here would stay
    English on a Chinese page."""
    script = TO_THE_HOST.sub("", without_comments(text_of(path)))
    literals = [
        re.sub(r"\$\{[^}]*\}", "", literal)  # a template's code is no text
        for match in STRING.finditer(script)
        for literal in match.groups()
        if literal
    ]
    prose = [text for text in literals if PROSE.search(text) and text not in NOT_PROSE]
    assert prose == []


class _TextOf(HTMLParser):
    """The text and the person-facing attributes of a template, outside its style and script."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.inside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.inside.append(tag)
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.found.append(value)

    def handle_endtag(self, tag: str) -> None:
        if self.inside and tag == self.inside[-1]:
            self.inside.pop()

    def handle_data(self, data: str) -> None:
        if not self.inside and data.strip():
            self.found.append(data.strip())


@pytest.mark.parametrize(
    "path", sorted({path for document in DOCUMENTS.values() for path in document.templates})
)
def test_no_template_holds_words_of_its_own(path: str) -> None:
    reader = _TextOf()
    reader.feed(text_of(path))
    own = [text for text in reader.found if TEMPLATE_TEXT.sub("", text).strip()]
    assert own == []


def test_the_pages_carry_every_shipped_language() -> None:
    catalogs = json.loads(words_json(QUESTION_VIEW, WEB))
    assert set(catalogs) == {"en", "zh-Hans"}
    chinese, english = catalogs["zh-Hans"]["messages"], catalogs["en"]["messages"]
    assert chinese["submit"] == "提交"
    assert chinese["filter_hidden"] == {"other": "筛选隐藏了 {total} 个选项中的 {count} 个"}
    assert english["filter_hidden"]["one"] == "{count} of {total} option hidden by the filter"
    latin = {"digits": "latn", "separator": ":"}
    assert catalogs["zh-Hans"]["clock"] == catalogs["en"]["clock"] == latin


TAGS = [
    "zh", "zh-CN", "zh-SG", "zh-Hans", "zh-Hans-CN", "zh_CN.UTF-8", "ZH-cn", "zh-MY",
    "zh-TW", "zh-HK", "zh-Hant", "zh-Hant-CN", "en", "en-US", "fr-FR", "pt-BR", "C", "", "x",
]  # fmt: skip


def run_words_script(
    catalogs: dict[str, Any],
    tags: list[str],
    lang: str,
    seconds: int,
    *,
    number_format: bool = True,
) -> Any:
    """What words.js, run in Node on a page of `catalogs` speaking `lang`, says: the language it
    picks for each of `tags`, and its countdown of `seconds` (without `number_format`, where
    `Intl.NumberFormat` throws)."""
    script = (ROOT / "provide_choice" / "_bridge" / WORDS_SCRIPT).read_text(encoding="utf-8")
    request = {
        "script": script,
        "catalogs": catalogs,
        "tags": tags,
        "lang": lang,
        "seconds": seconds,
        "numberFormat": number_format,
    }
    completed = subprocess.run(
        [str(shutil.which("node")), str(RUNNER)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(completed.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_an_app_picks_the_hosts_language_as_the_server_would() -> None:
    said = run_words_script(json.loads(words_json(APP)), TAGS, "zh-Hans", 299)
    assert said["languages"] == [negotiate([tag]).tag for tag in TAGS]
    assert said["clock"] == "4:59"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_countdown_is_written_in_the_digits_of_the_pages_language() -> None:
    # No catalog of ours has other digits yet; a page in Egyptian Arabic would show them.
    catalogs = json.loads(words_json(APP))
    arabic = {"messages": {}, "clock": clock_numbers(Translation("ar_EG", NullTranslations()))}
    said = run_words_script({**catalogs, "ar-EG": arabic}, [], "ar-EG", 3605)
    assert said["clock"] == "\u0666\u0660:\u0660\u0665"  # 60:05 in Arabic-Indic digits


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_a_page_in_latin_digits_never_loads_the_browsers_number_data(language: str) -> None:
    # A first Intl.NumberFormat costs a new tab about 50 ms in Chromium (bench/portal.py).
    catalogs = json.loads(words_json(QUESTION_VIEW, WEB))
    said = run_words_script(catalogs, [], language, 299, number_format=False)
    assert said["clock"] == "4:59"
