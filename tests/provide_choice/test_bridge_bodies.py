"""Every body the bridge cannot take, on every route that reads one: a 4xx with `{"problems": [...]}`
and the question still open and answerable. Found by a fault campaign: these gave HTTP 500 with a
traceback, were accepted and broke the agent's poll, or (10 MB) went through to the agent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest
import websockets
from callers import PlainCaller

from provide_choice import Interaction, InteractionSettings, load_settings, parse_request
from provide_choice._bridge._bridge import Bridge
from provide_choice._bridge._local_http import BODY_LIMIT
from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._terminal_handoff._transport import TerminalHandoffTransport
from provide_choice._transports._web import WebTransport

QUESTION = parse_request(
    {
        "title": "Name",
        "prompt": "What should the service be called?",
        "selection_mode": "hybrid",
        "options": [{"id": "orders", "label": "orders", "recommended": True}],
    }
)

BAD_BODIES = {
    "not UTF-8": (b'{"kind": "answered", "custom_input": "caf\xe9"}', 422, "UTF-8"),
    "a lone surrogate": (
        b'{"kind": "answered", "custom_input": "x\\ud800y"}',
        422,
        "lone surrogates",
    ),
    "a 5,000-digit number": (b'{"timeout_override_seconds": ' + b"1" * 5000 + b"}", 422, "JSON"),
    "30,000 open brackets": (b"[" * 30_000, 422, "JSON"),
    "nesting 100,000 deep": (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, 413, "at most"),
    "nesting 5,000 deep": (b"[" * 5_000 + b"]" * 5_000, 422, "JSON"),
    "10 MB of text": (
        b'{"kind": "answered", "custom_input": "' + b"x" * 10_000_000 + b'"}',
        413,
        f"at most {BODY_LIMIT} bytes",
    ),
}
WEB_ROUTES = ["answer", "draft", "settings", "visibility"]
HANDOFF_ROUTES = ["result", "settings"]


@dataclass
class Open:
    """A question shown on a running bridge, at `url`."""

    question: PendingQuestion
    url: str


@pytest.fixture
async def bridge() -> AsyncIterator[Bridge]:
    bridge = Bridge(linger_seconds=1.0)
    yield bridge
    await bridge.aclose()


async def web_question(bridge: Bridge) -> Open:
    registry = QuestionRegistry()
    question = registry.create(Interaction.start(QUESTION, InteractionSettings()), "web")
    await WebTransport(bridge, registry, open_browser=False).show(question, PlainCaller())
    assert question.url is not None
    return Open(question, question.url)


async def handoff_question(bridge: Bridge) -> Open:
    registry = QuestionRegistry()
    question = registry.create(
        Interaction.start(QUESTION, InteractionSettings()), "terminal_handoff"
    )
    launch = await TerminalHandoffTransport(bridge, registry).show(question, PlainCaller())
    async with httpx.AsyncClient() as client:
        assert (await client.post(launch.url + "/attach", json={})).status_code == 200
    return Open(question, launch.url)


async def post(url: str, body: bytes) -> httpx.Response:
    async with httpx.AsyncClient(timeout=30) as client:
        return await client.post(url, content=body, headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("kind", list(BAD_BODIES))
@pytest.mark.parametrize(
    ("surface", "route"),
    [("web", route) for route in WEB_ROUTES] + [("handoff", route) for route in HANDOFF_ROUTES],
)
async def test_regression_a_body_the_bridge_cannot_take_is_refused_and_the_question_stays_open(
    bridge: Bridge, surface: str, route: str, kind: str
) -> None:
    body, status, problem = BAD_BODIES[kind]
    shown = await (web_question if surface == "web" else handoff_question)(bridge)
    response = await post(f"{shown.url}/{route}", body)
    assert response.status_code == status, response.text
    (reason,) = response.json()["problems"]
    assert problem in reason
    assert shown.question.outcome is None
    answer = b'{"kind": "answered", "selected_ids": ["orders"]}'
    assert (
        await post(f"{shown.url}/{'result' if surface == 'handoff' else 'answer'}", answer)
    ).is_success
    assert shown.question.outcome is not None


async def test_regression_a_huge_timeout_is_refused_and_never_saved(bridge: Bridge) -> None:
    # 1 followed by 400 zeros was saved to settings.json, and every later call failed.
    for shown in (await web_question(bridge), await handoff_question(bridge)):
        response = await post(
            shown.url + "/settings", b'{"timeout_override_seconds": 1' + b"0" * 400 + b"}"
        )
        assert response.status_code == 422
        assert "timeout_override_seconds must be at most 86400" in response.json()["problems"][0]
    assert load_settings() == InteractionSettings()


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "answer", "data": {"kind": "answered", "custom_input": "x\\ud800y"}}',
        '{"type": "draft", "data": ' + "[" * 5_000 + "]" * 5_000 + "}",
        '{"type": "settings", "data": {"timeout_override_seconds": ' + "9" * 5_000 + "}}",
    ],
)
async def test_regression_the_live_socket_refuses_what_the_routes_refuse(
    bridge: Bridge, message: str
) -> None:
    shown = await web_question(bridge)
    address = shown.url.replace("http://", "ws://") + "/live"
    origin = shown.url.split("/choice/")[0]
    async with websockets.connect(address, origin=origin, max_size=None) as live:  # type: ignore[arg-type]
        json.loads(await live.recv())  # the state, at once
        await live.send(message)
        reply = json.loads(await live.recv())
    assert reply["type"] == "refused"
    assert reply["problems"]
    assert shown.question.outcome is None
