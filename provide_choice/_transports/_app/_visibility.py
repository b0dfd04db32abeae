"""Tools only an app view calls are listed only to clients that draw apps.

A host that draws apps keeps a tool marked `_meta.ui.visibility: ["app"]` from its model; a client
that draws none would hand it to its model like any other tool, to be called for nothing. So the
server leaves such tools out of `tools/list` for those clients. They stay callable (a view calls
them by name): only the list a model reads is shorter.
"""

from __future__ import annotations

from typing import Any

from mcp.server.apps import client_supports_apps
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext


class AppOnlyToolsListedToApps(ServerMiddleware[Any]):
    """Server middleware: `tools/list` without app-only tools for a client that draws no apps."""

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/list" or not isinstance(result, dict) or client_supports_apps(ctx):
            return result
        tools = result.get("tools")
        if not isinstance(tools, list):
            return result
        return result | {"tools": [tool for tool in tools if not app_only(tool)]}


def app_only_meta() -> dict[str, Any]:
    """The `_meta` of a tool only app views call. It names no view (`resourceUri` is optional):
    the tool has none, and a host that lists every tool naming a view as an app (the MCP
    Inspector's Apps tab) would otherwise offer it as one and draw another tool's view around its
    bare reply."""
    return {"ui": {"visibility": ["app"]}}


def app_only(tool: object) -> bool:
    """Whether a listed tool (as it goes on the wire) is for app views only."""
    meta = tool.get("_meta") if isinstance(tool, dict) else None
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return isinstance(ui, dict) and ui.get("visibility") == ["app"]
