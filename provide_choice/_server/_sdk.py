"""The one place this package reaches past the MCP SDK's public API, and what it relies on there.

The SDK's high-level server always registers handlers for prompts (and resources), and a server's
capabilities are derived from its handlers; mcp 2.x has no public way to leave them out. This
server has no prompts (its only resources are its tools' MCP Apps views), so a client should not be
told it has. `serve_no_prompts` removes them, and raises `SdkChanged` (tested in
`tests/provide_choice/test_sdk.py`) when the SDK no longer has the attributes it reads, rather than
silently advertising prompts again.
"""

from __future__ import annotations

from collections.abc import Iterable

from mcp.server.mcpserver import MCPServer

NO_PROMPTS = ("prompts/list", "prompts/get")
"""Request handlers the SDK's high-level server always registers, which this server does not
need: it has no prompts."""


class SdkChanged(RuntimeError):
    """The MCP SDK no longer has what this adapter relies on: update `_sdk` for the new version."""


def serve_no_prompts(server: MCPServer, methods: Iterable[str] = NO_PROMPTS) -> None:
    """Remove the handlers of `methods` from `server`, so its capabilities list no prompts."""
    lowlevel = getattr(server, "_lowlevel_server", None)
    handlers = getattr(lowlevel, "_request_handlers", None)
    if not isinstance(handlers, dict):
        raise SdkChanged(
            "MCPServer._lowlevel_server._request_handlers is gone: the installed MCP SDK changed "
            "how handlers are kept, so this server cannot leave out prompts"
        )
    for method in methods:
        handlers.pop(method, None)
