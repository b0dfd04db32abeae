"""The page of a question (the `web` transport's document): the question view in a page of its own,
with its state, style sheet and script inline."""

from __future__ import annotations

import html
from functools import cache
from string import Template

from provide_choice._transports._question_view._document import (
    joined_script,
    question_markup,
    script_parts,
)
from provide_choice._transports._question_view._state import QuestionPage
from provide_choice._web._local_http import SHARED_STYLE_SHEET, asset, script_safe_json

PACKAGE = "provide_choice._transports._web"
PAGE_PARTS = ("tab.js", "main.js")
"""The page's own parts of its script, after the question view's: its tab, and what starts it."""


def page_html(page: QuestionPage) -> str:
    """The page: agent text escaped (title) or rendered as safe markdown (prompt); the state
    goes in as JSON the page's script reads, never as markup or script. The page's own style
    sheet and script are inline (one request, not three) and pinned by hash in its CSP."""
    title = html.escape(page.title)
    return Template(asset("page.html", PACKAGE)).substitute(
        title=title,
        question=question_markup(title, page.prompt_html()),
        state=script_safe_json(page.state()),
        style=asset(SHARED_STYLE_SHEET),
        script=page_script(),
    )


@cache
def page_script() -> str:
    """The page's one inline script: the question view's parts, then the page's starter."""
    return joined_script([*script_parts(), *(asset(name, PACKAGE) for name in PAGE_PARTS)])


def missing_html() -> str:
    """The page at the address of a question that is not (or no longer) waiting."""
    return _notice(
        "No question here",
        "No question is waiting here",
        "It was answered, cancelled or timed out a while ago, or the server that asked it has "
        "restarted. If the agent still needs an answer, it will ask again.",
    )


def away_html(problem: str) -> str:
    """The page at a question's address while the store that keeps it cannot be reached: it says
    why (as an alert) and looks again every few seconds."""
    return _notice(
        "Question unavailable",
        "This question cannot be shown right now",
        f"{html.escape(problem)}. Nothing is lost: this page tries again every few seconds and "
        "shows the question as soon as it can.",
        alert=True,
    )


def _notice(title: str, heading: str, text: str, *, alert: bool = False) -> str:
    """A page that only says something (`text` is markup); an alert is read out at once, and
    the page loads itself again every few seconds."""
    return Template(asset("notice.html", PACKAGE)).substitute(
        style=asset(SHARED_STYLE_SHEET),
        title=title,
        heading=heading,
        text=text,
        role=' role="alert"' if alert else "",
        refresh='<meta http-equiv="refresh" content="3">\n' if alert else "",
    )
