"""The adapter over the MCP SDK's internals (`_server/_sdk`): it works on the installed SDK, and
says so loudly when the SDK changes under it. What a client then sees (only tools) is tested in
`test_server.py`."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver import MCPServer

from provide_choice._server._sdk import NOT_TOOLS, SdkChanged, serve_only_tools


async def test_the_installed_sdk_still_keeps_the_handlers_the_adapter_removes() -> None:
    # Fails when an SDK upgrade moves them: every method must be there before it is removed.
    server = MCPServer("probe")
    handlers = server._lowlevel_server._request_handlers
    assert set(NOT_TOOLS) <= set(handlers)
    serve_only_tools(server)
    assert not set(NOT_TOOLS) & set(handlers)
    assert {"tools/list", "tools/call"} <= set(handlers)


def test_an_sdk_that_moved_its_handlers_is_a_loud_error(monkeypatch: pytest.MonkeyPatch) -> None:
    server = MCPServer("probe")
    monkeypatch.delattr(server._lowlevel_server, "_request_handlers")
    with pytest.raises(SdkChanged, match="cannot leave out prompts and resources"):
        serve_only_tools(server)
