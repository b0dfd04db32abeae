"""The views this server serves as MCP Apps, and how a tool names its view.

The views reuse what the question page already has, so the page and the apps show agent text the
same way: the present_choices view its DOM helpers, the provide_choice view the whole question (its
markup, its style sheet, every part of its script but the one that starts the page), joined the
same way (every part in one strict function).
"""

from __future__ import annotations

from functools import cache
from string import Template
from typing import Any

from mcp.server.apps import APP_MIME_TYPE, Apps
from mcp.server.mcpserver.resources import FunctionResource

from present_choices._script_words import markup_words
from present_choices._translation import ENGLISH
from provide_choice._bridge._local_http import (
    SHARED_STYLE_SHEET,
    WORDS_SCRIPT,
    asset,
    joined_script,
    words_json,
)
from provide_choice._transports._question_view._document import PACKAGE as QUESTION_VIEW
from provide_choice._transports._question_view._document import (
    question_markup,
    script_parts,
)

PACKAGE = "provide_choice._transports._app"

PRESENT_CHOICES_VIEW = "ui://provide-choice/present-choices.html"
"""The view of `present_choices`: the question and its options as buttons, as the chat draws them."""
PROVIDE_CHOICE_VIEW = "ui://provide-choice/provide-choice.html"
"""The view of `provide_choice`: the question as the page draws it, answered in the conversation."""

LEGACY_META_KEY = "ui/resourceUri"
"""Where hosts built before the extension was stable look for a tool's view; the official server
helpers (`registerAppTool`) still set both keys, and so does this server."""

STYLE_SHEET = "apps.css"
HOST_BRIDGE = "view/host.js"


def view_meta(resource_uri: str) -> dict[str, Any]:
    """A tool's `_meta` naming its view."""
    return {"ui": {"resourceUri": resource_uri}, LEGACY_META_KEY: resource_uri}


@cache
def present_choices_view() -> str:
    """The present_choices view: one HTML document with its style, script and words inline (its
    markup in English until the host says its language)."""
    script = joined_script(
        [
            asset(WORDS_SCRIPT),
            asset("script/dom.js", QUESTION_VIEW),
            asset(HOST_BRIDGE, PACKAGE),
            asset("view/choices.js", PACKAGE),
        ]
    )
    return Template(asset("present_choices.html", PACKAGE)).substitute(
        markup_words(PACKAGE, ENGLISH),
        style=asset(STYLE_SHEET, PACKAGE),
        script=script,
        words=words_json(PACKAGE),
    )


@cache
def provide_choice_view() -> str:
    """The provide_choice view: the page's question, its style sheet and its script parts (all but
    main.js, which starts the page), started by view/asking.js instead; its words are the question
    view's and the app's."""
    script = joined_script(
        [*script_parts(), asset(HOST_BRIDGE, PACKAGE), asset("view/asking.js", PACKAGE)]
    )
    return Template(asset("provide_choice.html", PACKAGE)).substitute(
        markup_words(PACKAGE, ENGLISH),
        style=asset(SHARED_STYLE_SHEET),
        script=script,
        words=words_json(QUESTION_VIEW, PACKAGE),
        question=question_markup("", "", ENGLISH),
    )


def apps_extension() -> Apps:
    """The MCP Apps extension of this server: its views as `ui://` resources (the tools name them
    in their own `_meta`, being built raw), advertised under the extension's capability."""
    apps = Apps()
    # Each document is made when a host first reads it: its words (every language's) load then,
    # not when the server starts.
    views = (
        (
            PRESENT_CHOICES_VIEW,
            "present-choices",
            "Choices as buttons",
            "The question and its options as buttons, inline in the conversation.",
            present_choices_view,
        ),
        (
            PROVIDE_CHOICE_VIEW,
            "provide-choice",
            "A question for you",
            "The agent's question, answered inline in the conversation.",
            provide_choice_view,
        ),
    )
    for uri, name, title, description, document in views:
        apps.add_resource(
            FunctionResource(
                uri=uri,
                name=name,
                title=title,
                description=description,
                mime_type=APP_MIME_TYPE,
                fn=document,
            )
        )
    return apps
