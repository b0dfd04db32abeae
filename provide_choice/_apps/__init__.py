"""MCP Apps: the HTML views a host that renders apps draws inline in its conversation.

A tool names its view in `_meta.ui.resourceUri` (a `ui://` address); the host reads that resource
(`text/html;profile=mcp-app`) and draws it in a sandboxed frame that talks to the host over
`postMessage`. Every view here is one self-contained document: style sheet and script inline,
nothing fetched, so a host has no outside address to approve (`_meta.ui.csp` stays empty).
"""

from provide_choice._apps._views import (
    PRESENT_CHOICES_VIEW,
    PROVIDE_CHOICE_VIEW,
    apps_extension,
    present_choices_view,
    provide_choice_view,
    view_meta,
)

__all__ = [
    "PRESENT_CHOICES_VIEW",
    "PROVIDE_CHOICE_VIEW",
    "apps_extension",
    "present_choices_view",
    "provide_choice_view",
    "view_meta",
]
