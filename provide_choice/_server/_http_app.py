"""What `provide-choice serve --http` serves on its one port: the MCP endpoint (`/mcp`), which asks
for the server's token, and beside it the bridge's routes (the pages under `/choice/`, the hand-offs
under `/terminal/`), which a question's 192-bit id opens. One guard of the addresses the server
answers to (its own, and its public URL's) stands in front of both, so a proxy in front of several
instances sends everything to one port of each, and every address given out is under the public URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provide_choice._bridge._site import HostGuard, Site
from provide_choice._server._token import BearerGuard

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from provide_choice._bridge._bridge import ServedBridge

MCP_PATH = "/mcp"


class ServerApplication:
    """The ASGI application of `serve --http`: `/mcp` to the MCP server (behind `BearerGuard`
    unless `token` is None, which `--no-auth` allows on loopback only), every other path to the
    bridge's routes; the MCP server's lifespan (its session manager) runs with the server's."""

    def __init__(
        self, mcp_app: ASGIApp, bridge: ServedBridge, site: Site, token: str | None
    ) -> None:
        self.lifespan = mcp_app
        guarded = mcp_app if token is None else BearerGuard(mcp_app, token)
        # MCP requests are JSON, but a session ends with a DELETE that has no body.
        self.mcp = HostGuard(guarded, site=lambda: site, name="server", json_bodies=False)
        self.bridge = bridge

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(scope, receive, send)
        elif scope["path"] == MCP_PATH or scope["path"].startswith(MCP_PATH + "/"):
            await self.mcp(scope, receive, send)
        else:
            await self.bridge.application()(scope, receive, send)
