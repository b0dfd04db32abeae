"""The bridge over real HTTP (httpx): start on demand, linger, restart, and every refusal."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket
from waiting import nothing_listens, until

from provide_choice._bridge._bridge import Bridge, BridgeStartError
from provide_choice._bridge._local_http import HOST, listening_socket, read_json, route


def echo_routes(app: Starlette) -> None:
    @route(app, "GET", "/terminal/ping")
    async def ping(_request: Request) -> Response:
        return JSONResponse({"pong": "yes"})

    @route(app, "POST", "/terminal/echo")
    async def echo(request: Request) -> Response:
        return JSONResponse(await read_json(request))

    async def live(socket: WebSocket) -> None:
        await socket.accept()
        await socket.send_text("hello")
        await socket.close()

    app.router.add_websocket_route("/choice/live", live)


@pytest.fixture
async def bridge() -> AsyncIterator[Bridge]:
    bridge = Bridge(linger_seconds=0.1)
    bridge.add_routes(echo_routes)
    yield bridge
    await bridge.aclose()


@pytest.fixture
async def url(bridge: Bridge) -> str:
    return await bridge.acquire()


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


async def test_starts_on_demand_on_loopback_and_serves_the_added_routes(bridge: Bridge) -> None:
    assert bridge.base_url is None
    url = await bridge.acquire()
    assert url.startswith("http://127.0.0.1:")
    assert bridge.base_url == url
    async with httpx.AsyncClient(base_url=url) as client:
        assert (await client.get("/terminal/ping")).json() == {"pong": "yes"}
        echoed = await client.post("/terminal/echo", json={"a": 1})
        assert echoed.json() == {"a": 1}
        via_localhost = await client.get(f"http://localhost:{port_of(url)}/terminal/ping")
        assert via_localhost.status_code == 200


async def test_an_address_it_does_not_serve_and_a_method_it_does_not_take_are_refusals(
    url: str,
) -> None:
    async with httpx.AsyncClient(base_url=url) as client:
        missing = await client.get("/terminal/nowhere")
        wrong_method = await client.get("/terminal/echo")
    assert missing.status_code == 404
    assert missing.json() == {"problems": ["nothing is served at /terminal/nowhere"]}
    assert wrong_method.status_code == 405
    assert wrong_method.json() == {"problems": ["GET is not allowed here; this address takes POST"]}
    assert wrong_method.headers["allow"] == "POST"


async def test_stops_after_the_linger_once_the_last_user_releases_and_restarts(
    bridge: Bridge,
) -> None:
    first = await bridge.acquire()
    await bridge.acquire()
    await bridge.release()
    await asyncio.sleep(0.25)
    assert bridge.base_url == first, "one user is left, so it keeps running"
    await bridge.release()
    assert bridge.base_url == first, "it lingers before stopping"
    await until(lambda: bridge.base_url is None, "the bridge stops after its linger")
    await until(lambda: nothing_listens(first), "and closes its port")
    second = await bridge.acquire()
    async with httpx.AsyncClient(base_url=second) as client:
        assert (await client.get("/terminal/ping")).status_code == 200


async def test_acquiring_during_the_linger_keeps_the_same_bridge(bridge: Bridge) -> None:
    first = await bridge.acquire()
    await bridge.release()
    assert await bridge.acquire() == first
    await asyncio.sleep(0.25)
    assert bridge.base_url == first


async def test_aclose_stops_at_once(bridge: Bridge, url: str) -> None:
    await bridge.aclose()
    assert bridge.base_url is None
    with pytest.raises(httpx.ConnectError):
        await httpx.AsyncClient().get(f"{url}/terminal/ping")


async def test_a_configured_port_in_use_is_a_clear_error_not_an_exit() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        bridge = Bridge(port=port)
        with pytest.raises(BridgeStartError, match=f"cannot listen on 127.0.0.1:{port}"):
            await bridge.acquire()
    assert bridge.base_url is None


async def test_a_configured_port_is_used(unused_port: int) -> None:
    bridge = Bridge(port=unused_port)
    try:
        assert await bridge.acquire() == f"http://127.0.0.1:{unused_port}"
    finally:
        await bridge.aclose()


@pytest.fixture
def unused_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1", "127.0.0.1:1", "0.0.0.0:{port}"]
)
async def test_a_foreign_host_is_refused_on_every_route(url: str, host: str) -> None:
    headers = {"Host": host.format(port=port_of(url))}
    async with httpx.AsyncClient(base_url=url, headers=headers) as client:
        read = await client.get("/terminal/ping")
        write = await client.post("/terminal/echo", json={})
    for response in (read, write):
        assert response.status_code == 403
        assert "Host header" in response.json()["problems"][0]


async def test_a_foreign_origin_is_refused_for_state_changing_requests(url: str) -> None:
    foreign = {"Origin": "http://evil.example"}
    own = {"Origin": url}
    async with httpx.AsyncClient(base_url=url) as client:
        refused = await client.post("/terminal/echo", json={}, headers=foreign)
        allowed = await client.post("/terminal/echo", json={}, headers=own)
        read = await client.get("/terminal/ping", headers=foreign)
        for method in ("PUT", "PATCH", "DELETE"):
            other = await client.request(method, "/terminal/echo", json={}, headers=foreign)
            assert other.status_code == 403, method
    assert refused.status_code == 403
    assert "other origins" in refused.json()["problems"][0]
    assert allowed.status_code == 200
    assert read.status_code == 200, "reads carry no state change"


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"a": 1}'),
        ("application/x-www-form-urlencoded", b"a=1"),
        ("multipart/form-data; boundary=x", b"--x--"),
        (None, b'{"a": 1}'),
    ],
)
async def test_a_non_json_body_is_refused(url: str, content_type: str | None, body: bytes) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    async with httpx.AsyncClient(base_url=url) as client:
        response = await client.post("/terminal/echo", content=body, headers=headers)
    assert response.status_code == 415
    assert "must be JSON" in response.json()["problems"][0]


async def test_json_with_a_charset_is_json(url: str) -> None:
    headers = {"Content-Type": "application/json; charset=utf-8"}
    async with httpx.AsyncClient(base_url=url) as client:
        response = await client.post("/terminal/echo", content=b'{"a": 1}', headers=headers)
    assert response.json() == {"a": 1}


async def test_a_websocket_needs_the_bridges_own_origin(url: str) -> None:
    address = url.replace("http://", "ws://") + "/choice/live"
    async with websockets.connect(address, origin=url) as connection:  # type: ignore[arg-type]
        assert await connection.recv() == "hello"
    for origin in ("http://evil.example", None):
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with websockets.connect(address, origin=origin):  # type: ignore[arg-type]
                pass
        assert refused.value.response.status_code == 403


async def test_regression_keep_alive_responses_do_not_wait_for_nagle() -> None:
    # A socket from socket.create_server has protocol 0, so asyncio did not set TCP_NODELAY on
    # the connections it accepted: every response after a connection's first waited ~40 ms.
    with listening_socket(0) as listener:
        port = listener.getsockname()[1]
        with socket.create_connection((HOST, port)):
            accepted, _ = listener.accept()
            with accepted:
                assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
