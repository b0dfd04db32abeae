"""The MCP Apps views as a host reads them: which tool names which view, the view served as
`text/html;profile=mcp-app` and self-contained (nothing to fetch, nothing for a host to approve),
and the tool's result unchanged for hosts without apps. What the views do is tested in a browser,
in e2e/apps/."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from mcp import Client
from mcp.client.extension import advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp_types import TextContent, TextResourceContents

from present_choices import present_choices
from present_choices._translation import ENGLISH
from provide_choice import create_server
from provide_choice._bridge._local_http import SHARED_STYLE_SHEET, asset
from provide_choice._transports._app._views import (
    HOST_BRIDGE,
    PACKAGE,
    present_choices_view,
    provide_choice_view,
)
from provide_choice._transports._question_view._document import PACKAGE as QUESTION_VIEW
from provide_choice._transports._question_view._document import SCRIPT_PARTS, question_markup
from provide_choice._transports._web._page import PACKAGE as WEB
from provide_choice._transports._web._page import PAGE_PARTS

ARGUMENTS: dict[str, Any] = {
    "question": "Which database?",
    "options": [{"label": "PostgreSQL", "value": "pg"}, {"label": "SQLite", "value": "lite"}],
    "context": "Both work.",
}
PRESENT = "ui://provide-choice/present-choices.html"
PROVIDE = "ui://provide-choice/provide-choice.html"
VIEWS = {PRESENT: present_choices_view, PROVIDE: provide_choice_view}
DECLARES_APPS = advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})


async def test_each_tool_names_its_view_in_both_places_hosts_look() -> None:
    async with Client(create_server(), extensions=[DECLARES_APPS]) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    for tool, view in (("present_choices", PRESENT), ("provide_choice", PROVIDE)):
        assert tools[tool].meta == {"ui": {"resourceUri": view}, "ui/resourceUri": view}


async def test_regression_the_app_only_tool_names_no_view_so_hosts_offer_no_third_app() -> None:
    """The MCP Inspector 2.12 listed `provide_choice_app` as a third app, because it named the
    provide_choice view, and drew that view around the tool's bare JSON reply when opened. The
    tool has no view of its own: it is only hidden from the model."""
    async with Client(create_server(), extensions=[DECLARES_APPS]) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert tools["provide_choice_app"].meta == {"ui": {"visibility": ["app"]}}
    naming_a_view = {name for name, tool in tools.items() if "resourceUri" in tool.meta["ui"]}
    assert naming_a_view == {"present_choices", "provide_choice"}


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_app_only_tool_is_listed_only_to_clients_that_draw_apps(mode: str) -> None:
    listed = {}
    for draws in (False, True):
        extensions = [DECLARES_APPS] if draws else []
        async with Client(create_server(), mode=mode, extensions=extensions) as client:
            listed[draws] = {tool.name for tool in (await client.list_tools()).tools}
            called = await client.call_tool(
                "provide_choice_app", {"type": "state", "question_id": "x"}
            )
        assert called.structured_content == {
            "problems": ["this question is not open in the conversation any more"]
        }
    assert listed[True] - listed[False] == {"provide_choice_app"}
    assert listed[False] == {"provide_choice", "present_choices"}


async def test_the_views_are_served_as_mcp_apps_with_nothing_to_approve() -> None:
    async with Client(create_server(), extensions=[DECLARES_APPS]) as client:
        assert EXTENSION_ID in (client.server_capabilities.extensions or {})  # type: ignore[union-attr]
        listed = (await client.list_resources()).resources
        read = {uri: (await client.read_resource(uri)).contents for uri in VIEWS}
    assert sorted((item.uri, item.mime_type) for item in listed) == [
        (PRESENT, APP_MIME_TYPE),
        (PROVIDE, APP_MIME_TYPE),
    ]
    for uri, (content,) in read.items():
        assert isinstance(content, TextResourceContents)
        assert content.mime_type == APP_MIME_TYPE
        assert content.text == VIEWS[uri]()
        assert not (content.meta or {}).get("ui", {}).get("csp"), "no outside address to approve"


@pytest.mark.parametrize("view", VIEWS.values())
def test_a_view_is_one_document_that_fetches_nothing(view: Callable[[], str]) -> None:
    html = view()
    assert html.startswith("<!doctype html>")
    assert '<html lang="en">' in html
    for fetching in (r"\bsrc=", r"\bhref=", r"url\(", r"@import", r"https?://", r"XMLHttp"):
        assert not re.search(fetching, html), f"the view would fetch something: {fetching}"


def test_the_present_choices_view_shares_the_pages_dom_helpers() -> None:
    html = present_choices_view()
    assert html.count(asset("script/dom.js", QUESTION_VIEW)) == 1
    assert asset(HOST_BRIDGE, PACKAGE) in html
    assert duplicated_names(html) == []


def test_the_provide_choice_view_is_the_pages_question_started_by_the_host() -> None:
    html = provide_choice_view()
    for name in SCRIPT_PARTS:
        assert html.count(asset(f"script/{name}", QUESTION_VIEW)) == 1, name
    for name in PAGE_PARTS:
        assert asset(name, WEB) not in html
    assert asset(HOST_BRIDGE, PACKAGE) in html
    assert question_markup("", "", ENGLISH) in html
    assert asset(SHARED_STYLE_SHEET) in html
    assert duplicated_names(html) == []


def duplicated_names(html: str) -> list[str]:
    """Top-level names two parts of a joined script declare (they share one scope)."""
    top_level = r"^(?:async\s+)?(?:function|const|let|var|class)\s+(\w+)"
    declared = Counter(re.findall(top_level, html, flags=re.MULTILINE))
    assert declared["element"] == 1
    return [name for name, count in declared.items() if count > 1]


async def test_the_result_stays_the_fence_and_its_instructions_for_hosts_without_apps() -> None:
    for extensions in ([], [DECLARES_APPS]):
        async with Client(create_server(), extensions=extensions) as client:
            result = await client.call_tool("present_choices", ARGUMENTS)
        (content,) = result.content
        assert isinstance(content, TextContent)
        assert content.text == present_choices(**ARGUMENTS)
        assert not result.is_error
