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
STARTER = "main.js"
"""The part of the page's script that starts it, after the question view's parts."""


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
    return joined_script([*script_parts(), asset(STARTER, PACKAGE)])


def missing_html() -> str:
    """The page at the address of a question that is not (or no longer) waiting."""
    return Template(asset("missing.html", PACKAGE)).substitute(style=asset(SHARED_STYLE_SHEET))


def away_html(problem: str) -> str:
    """The page at a question's address while the store that keeps it cannot be reached: it says
    why and looks again every few seconds."""
    return Template(asset("away.html", PACKAGE)).substitute(
        style=asset(SHARED_STYLE_SHEET), problem=html.escape(problem)
    )
