"""The page of a question (the `web` transport's document): the question view in a page of its own,
with its state, words, style sheet and script inline, in the language the page speaks."""

from __future__ import annotations

import html
from functools import cache
from string import Template

from present_choices._translation import N_, Translation
from provide_choice._bridge._local_http import (
    SHARED_STYLE_SHEET,
    asset,
    joined_script,
    script_safe_json,
    words_json,
)
from provide_choice._transports._question_view._document import (
    PACKAGE as QUESTION_VIEW,
)
from provide_choice._transports._question_view._document import (
    question_markup,
    script_parts,
)
from provide_choice._transports._question_view._shown import prompt_html
from provide_choice._transports._question_view._state import QuestionPage

PACKAGE = "provide_choice._transports._web"
PAGE_PARTS = ("tab.js", "main.js")
"""The page's own parts of its script, after the question view's: its tab, and what starts it."""
MISSING_TITLE = N_("No question here")
MISSING = N_("No question is waiting here")
MISSING_WHY = N_(
    "It was answered, cancelled or timed out a while ago, or the server that asked it has "
    "restarted. If the agent still needs an answer, it will ask again."
)
AWAY_TITLE = N_("Question unavailable")
AWAY = N_("This question cannot be shown right now")
AWAY_WHY = N_(
    "{problem}. Nothing is lost: this page tries again every few seconds and shows the question "
    "as soon as it can."
)


def page_html(page: QuestionPage, signal: list[str]) -> str:
    """The page: agent text escaped (title) or rendered as safe markdown (prompt); the state
    goes in as JSON the page's script reads, never as markup or script, and so do its words. The
    page's own style sheet and script are inline (one request, not three) and pinned by hash in
    its CSP. It speaks the person's language (`signal`: the browser's, best first)."""
    state = page.state(signal)
    translation = page.translation(signal)
    title = html.escape(page.title)
    return Template(asset("page.html", PACKAGE)).substitute(
        language=translation.tag,
        title=title,
        question=question_markup(
            title, prompt_html(page.question.interaction.asked, translation), translation
        ),
        state=script_safe_json(state),
        words=page_words(),
        style=asset(SHARED_STYLE_SHEET),
        script=page_script(),
    )


def page_words() -> str:
    """The page's words: the question view's messages and the page's own, in every language."""
    return words_json(QUESTION_VIEW, PACKAGE)


@cache
def page_script() -> str:
    """The page's one inline script: the question view's parts, then the page's starter."""
    return joined_script([*script_parts(), *(asset(name, PACKAGE) for name in PAGE_PARTS)])


def missing_html(translation: Translation) -> str:
    """The page at the address of a question that is not (or no longer) waiting."""
    _ = translation
    return _notice(
        translation,
        _.gettext(MISSING_TITLE),
        _.gettext(MISSING),
        html.escape(_.gettext(MISSING_WHY)),
    )


def away_html(problem: str, translation: Translation) -> str:
    """The page at a question's address while the store that keeps it cannot be reached: it says
    why (as an alert) and looks again every few seconds, in the person's language."""
    _ = translation
    return _notice(
        translation,
        _.gettext(AWAY_TITLE),
        _.gettext(AWAY),
        html.escape(_.gettext(AWAY_WHY, problem=problem)),
        alert=True,
    )


def _notice(
    translation: Translation, title: str, heading: str, text: str, *, alert: bool = False
) -> str:
    """A page that only says something (`text` is markup), in `translation`'s language; an alert
    is read out at once, and the page loads itself again every few seconds."""
    return Template(asset("notice.html", PACKAGE)).substitute(
        language=translation.tag,
        style=asset(SHARED_STYLE_SHEET),
        title=html.escape(title),
        heading=html.escape(heading),
        text=text,
        role=' role="alert"' if alert else "",
        refresh='<meta http-equiv="refresh" content="3">\n' if alert else "",
    )
