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
    return Template(asset("missing.html", PACKAGE)).substitute(style=asset(SHARED_STYLE_SHEET))
