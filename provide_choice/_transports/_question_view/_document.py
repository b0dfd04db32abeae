"""The question view's document parts: its markup, its script and its words, as the page and the app
join them.

The page (`web`) and the app view (`app`) draw the same question: the markup of `question.html`
and the script parts in script/, joined in one strict function. Each carrier adds the part that
starts it (the page its main.js, the app its view/asking.js) and its own frame around the markup,
and its own messages (a `messages.json` beside its starter) to the view's.
"""

from __future__ import annotations

from string import Template

from present_choices._script_words import markup_words
from present_choices._translation import Translation
from provide_choice._bridge._local_http import WORDS_SCRIPT, asset

PACKAGE = "provide_choice._transports._question_view"
"""Where the question's markup template, script parts and their messages are shipped."""
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
    """The text of every shared part of the script, in order: the words first."""
    return [asset(WORDS_SCRIPT), *(asset(f"script/{name}", PACKAGE) for name in SCRIPT_PARTS)]


def question_markup(title: str, prompt: str, translation: Translation) -> str:
    """The question's part of a document (its form, its ending, the settings), the page's and the
    provide_choice app's alike: `title` escaped and `prompt` rendered already (the app, whose
    document is the same for every question, fills both in from the question's state), its own
    words in `translation` (which its script says again in another language)."""
    words = markup_words(PACKAGE, translation)
    return Template(asset("question.html", PACKAGE)).substitute(words, title=title, prompt=prompt)
