"""The question view's document parts: its markup and its script, as the page and the app join them.

The page (`web`) and the app view (`app`) draw the same question: the markup of `question.html`
and the script parts in script/, joined in one strict function. Each carrier adds the part that
starts it (the page its main.js, the app its view/asking.js) and its own frame around the markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from string import Template

from provide_choice._web._local_http import asset

PACKAGE = "provide_choice._transports._question_view"
"""Where the question's markup template and script parts are shipped."""
SCRIPT_PARTS = (
    "dom.js",
    "answer.js",
    "questions.js",
    "preview.js",
    "keys.js",
    "options.js",
    "form.js",
    "settings.js",
    "countdown.js",
    "channel.js",
    "question.js",
)
"""The question script's parts in script/, in the order they are joined; the part that starts the
view (each carrier's own) comes after them."""


def script_parts() -> list[str]:
    """The text of every shared part of the script, in order."""
    return [asset(f"script/{name}", PACKAGE) for name in SCRIPT_PARTS]


def question_markup(title: str, prompt: str) -> str:
    """The question's part of a document (its form, its ending, the settings), the page's and the
    provide_choice app's alike: `title` escaped and `prompt` rendered already (the app, whose
    document is the same for every question, fills both in from the question's state)."""
    return Template(asset("question.html", PACKAGE)).substitute(title=title, prompt=prompt)


def joined_script(parts: Iterable[str]) -> str:
    """One inline script: the parts joined in order inside one strict function, so they share
    their top-level names with each other and with nothing else. Each part says what it takes
    from the others (`/* global ... */`) and what it gives them (`/* exported ... */`)."""
    joined = "\n".join(parts)
    return f'"use strict";\n\n(() => {{\n{joined}}})();\n'
