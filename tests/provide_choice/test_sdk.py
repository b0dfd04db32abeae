"""The adapter over the MCP SDK's internals (`_server/_sdk`): it works on the installed SDK, and
says so loudly when the SDK changes under it. What a client then sees (tools, and the tools' views
as resources) is tested in `test_server.py`."""

from __future__ import annotations

import pytest
from mcp.server.mcpserver import MCPServer

from provide_choice._server._sdk import NO_PROMPTS, SdkChanged, serve_no_prompts


async def test_the_installed_sdk_still_keeps_the_handlers_the_adapter_removes() -> None:
    # Fails when an SDK upgrade moves them: every method must be there before it is removed.
    server = MCPServer("probe")
    handlers = server._lowlevel_server._request_handlers
    assert set(NO_PROMPTS) <= set(handlers)
    serve_no_prompts(server)
    assert not set(NO_PROMPTS) & set(handlers)
    assert {"tools/list", "tools/call"} <= set(handlers)


def test_an_sdk_that_moved_its_handlers_is_a_loud_error(monkeypatch: pytest.MonkeyPatch) -> None:
    server = MCPServer("probe")
    monkeypatch.delattr(server._lowlevel_server, "_request_handlers")
    with pytest.raises(SdkChanged, match="cannot leave out prompts"):
        serve_no_prompts(server)
