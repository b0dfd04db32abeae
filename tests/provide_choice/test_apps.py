"""The MCP Apps views as a host reads them: which tool names which view, the view served as
`text/html;profile=mcp-app` and self-contained (nothing to fetch, nothing for a host to approve),
and the tool's result unchanged for hosts without apps. What the views do is tested in a browser,
in e2e/apps/."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from mcp import Client
from mcp.client.extension import advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp_types import TextContent, TextResourceContents

from present_choices import present_choices
from provide_choice import create_server
from provide_choice._apps._views import HOST_BRIDGE, PACKAGE, PORTAL, present_choices_view
from provide_choice._transports._portal._page import asset

ARGUMENTS: dict[str, Any] = {
    "question": "Which database?",
    "options": [{"label": "PostgreSQL", "value": "pg"}, {"label": "SQLite", "value": "lite"}],
    "context": "Both work.",
}
VIEW = "ui://provide-choice/present-choices.html"
DECLARES_APPS = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})


async def test_present_choices_names_its_view_in_both_places_hosts_look() -> None:
    async with Client(create_server()) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert tools["present_choices"].meta == {"ui": {"resourceUri": VIEW}, "ui/resourceUri": VIEW}


async def test_the_view_is_served_as_an_mcp_app_with_nothing_to_approve() -> None:
    async with Client(create_server(), extensions=[DECLARES_APPS]) as client:
        assert EXTENSION_ID in (client.server_capabilities.extensions or {})  # type: ignore[union-attr]
        listed = (await client.list_resources()).resources
        (content,) = (await client.read_resource(VIEW)).contents
    assert [(item.uri, item.mime_type) for item in listed] == [(VIEW, APP_MIME_TYPE)]
    assert isinstance(content, TextResourceContents)
    assert content.mime_type == APP_MIME_TYPE
    assert content.text == present_choices_view()
    assert not (content.meta or {}).get("ui", {}).get("csp"), "no outside address to approve"


def test_the_view_is_one_document_that_fetches_nothing() -> None:
    html = present_choices_view()
    assert html.startswith("<!doctype html>")
    assert '<html lang="en">' in html
    for fetching in (
        r"\bsrc=",
        r"\bhref=",
        r"url\(",
        r"@import",
        r"https?://",
        r"fetch\(",
        "XMLHttp",
    ):
        assert not re.search(fetching, html), f"the view would fetch something: {fetching}"


def test_the_view_shares_the_pages_dom_helpers_instead_of_a_copy() -> None:
    html = present_choices_view()
    dom = asset("page/dom.js", PORTAL)
    assert html.count(dom) == 1
    assert asset(HOST_BRIDGE, PACKAGE) in html
    top_level = r"^(?:async\s+)?(?:function|const|let|var|class)\s+(\w+)"
    declared = Counter(re.findall(top_level, html, flags=re.MULTILINE))
    assert declared["element"] == 1
    assert [name for name, count in declared.items() if count > 1] == []


async def test_the_result_stays_the_fence_and_its_instructions_for_hosts_without_apps() -> None:
    for extensions in ([], [DECLARES_APPS]):
        async with Client(create_server(), extensions=extensions) as client:
            result = await client.call_tool("present_choices", ARGUMENTS)
        (content,) = result.content
        assert isinstance(content, TextContent)
        assert content.text == present_choices(**ARGUMENTS)
        assert not result.is_error
