"""The documented nginx example for provide_choice, as written, in front of two instances on one
Redis: round-robin, no sticky sessions. The agent (the MCP SDK's client) and the person (Chromium)
reach everything through it at the public URL: the token is asked there, the calls stream their
progress through it, each instance asks some of the questions, and every page, with its WebSocket,
is answered through whichever instance nginx picks.

It needs nginx (Debian's `nginx-light` will do); without one it is skipped, saying so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp_servers import call_on_page, http_client, structured
from nginx import documented_nginx_config, running_nginx
from playwright.async_api import BrowserContext, WebSocket, expect
from remote_instances import QUESTION, Instance

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture
def proxied(a: Instance, b: Instance, public_url: str, tmp_path: Path) -> Iterator[str]:
    """nginx with the documented configuration at the instances' public URL, in front of them."""
    servers = {"127.0.0.1:8081": f"127.0.0.1:{a.port}", "127.0.0.1:8082": f"127.0.0.1:{b.port}"}
    port = int(public_url.rsplit(":", 1)[1])
    with running_nginx(documented_nginx_config("provide_choice"), tmp_path, port, servers) as url:
        yield url


async def test_through_the_documented_nginx_any_instance_serves_every_step(
    proxied: str, a: Instance, b: Instance, person: BrowserContext
) -> None:
    url = proxied
    asked_before = {server.port: _asked(server) for server in (a, b)}
    async with httpx.AsyncClient() as http:
        refused = await http.post(f"{url}/mcp", json={}, headers={"Accept": "application/json"})
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"] == "Bearer"
    async with http_client(f"{url}/mcp") as agent:
        asked = [await call_on_page(agent, {**QUESTION, "title": f"Question {n}"}) for n in (1, 2)]
        sockets: list[WebSocket] = []
        for (asking, address), label in zip(asked, ("API", "Web"), strict=True):
            assert address.startswith(f"{url}/choice/")  # under the public URL
            page = await person.new_page()
            page.on("websocket", lambda socket: sockets.append(socket))
            await page.goto(address)
            await page.get_by_role("radio", name=label).click()
            await expect(
                page.get_by_role("heading", name="Answer sent, you can close this tab")
            ).to_be_visible()
            result = structured(await asyncio.wait_for(asking, 10))
            assert result["selection"]["selected_ids"] == [label.lower()]
            assert result["selection"]["url"] == address
    assert sockets, "the pages talked to their server over a WebSocket, through nginx"
    assert all(
        socket.url.startswith(f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/") for socket in sockets
    )
    for server in (a, b):  # round-robin: each instance asked one of the questions
        assert _asked(server) == asked_before[server.port] + 1, server.said


def _asked(server: Instance) -> int:
    """How many questions the instance asked (it says so on stderr, each)."""
    return sum("question waiting at" in line for line in server.said)
