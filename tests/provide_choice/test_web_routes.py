"""The page over real HTTP and WebSocket on a real bridge (no browser): the page and its
headers, every message and refusal, the end of a question, the bridge's life, the browser hand-off."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import os
import re
import webbrowser
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from callers import PlainCaller
from waiting import until

from provide_choice import (
    Answered,
    Cancelled,
    Ending,
    Interaction,
    InteractionSettings,
    PendingQuestion,
    TimedOut,
    parse_request,
)
from provide_choice._bridge._bridge import Bridge
from provide_choice._bridge._local_http import SHARED_STYLE_SHEET, asset, open_in_browser
from provide_choice._question import QuestionRegistry
from provide_choice._transports._web import WebTransport
from provide_choice._transports._web._page import page_script
from provide_choice._transports._web._routes import CONTENT_SECURITY_POLICY

QUESTION = {
    "title": "Checks",
    "prompt": "Which checks should run before the release?",
    "selection_mode": "multi",
    "options": [
        {"id": "unit", "label": "Unit tests", "recommended": True},
        {"id": "e2e", "label": "Browser tests"},
        {"id": "bench", "label": "Benchmarks"},
    ],
    "max_selections": 2,
}


@pytest.fixture
async def web() -> AsyncIterator[WebTransport]:
    # Long enough for a test's requests after an ending, even on a busy machine; short enough
    # for the tests that wait for the stop.
    bridge = Bridge(linger_seconds=1.0)
    yield WebTransport(bridge, QuestionRegistry(), open_browser=False)
    await bridge.aclose()


async def ask(
    web: WebTransport, request: dict[str, Any] | None = None
) -> tuple[asyncio.Task[Ending], str]:
    """Show a question the way the server does; the task waiting for it (cancelling it is the
    agent's cancel) and the page's URL."""
    interaction = Interaction.start(parse_request(request or QUESTION), InteractionSettings())
    question = web.pages.registry.create(interaction, "web")
    await web.show(question, PlainCaller())
    assert question.url is not None
    return asyncio.create_task(wait_as_the_server_does(question)), question.url


async def wait_as_the_server_does(question: PendingQuestion) -> Ending:
    try:
        return await question.wait()
    except asyncio.CancelledError:
        question.finish(Cancelled(by="agent"))
        raise


def live_address(url: str) -> str:
    return url.replace("http://", "ws://") + "/live"


def origin_of(url: str) -> str:
    return re.match(r"http://[^/]+", url).group(0)  # type: ignore[union-attr]


async def next_message(connection: websockets.ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(connection.recv(), 5))
    return message


async def test_the_page_allows_only_its_own_scripts_and_keeps_its_address_private(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/choice/[A-Za-z0-9_-]{32,}", url)
    async with httpx.AsyncClient() as client:
        page = await client.get(url)
        icon = await client.get(origin_of(url) + "/choice/assets/icon.svg")
        other = await client.get(origin_of(url) + "/choice/assets/secret.py")
        unknown = await client.get(origin_of(url) + "/choice/not-a-question")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert policy == CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in policy
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    # Exactly the page's own script and style sheet, inline, each pinned by its hash.
    scripts = re.findall(r"<script>(.*?)</script>", page.text, flags=re.DOTALL)
    styles = re.findall(r"<style>(.*?)</style>", page.text, flags=re.DOTALL)
    assert [directives["script-src"], directives["style-src"]] == [
        " ".join(sha256_source(text) for text in scripts),
        " ".join(sha256_source(text) for text in styles),
    ]
    assert len(scripts) == len(styles) == 1
    assert "<script src" not in page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    assert page.headers["x-content-type-options"] == "nosniff"
    assert icon.status_code == 200
    assert icon.headers["content-type"].startswith("image/svg+xml")
    assert other.status_code == 404
    assert unknown.status_code == 404
    assert "No question is waiting here" in unknown.text
    assert unknown.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert re.findall(r"<style>(.*?)</style>", unknown.text, flags=re.DOTALL) == styles
    task.cancel()


def sha256_source(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


@pytest.mark.parametrize(
    ("text", "tag"), [(page_script(), "script"), (asset(SHARED_STYLE_SHEET), "style")]
)
def test_the_inline_script_and_style_cannot_end_their_tag_early(text: str, tag: str) -> None:
    assert f"</{tag}" not in text.lower()


async def test_an_answer_outside_the_limits_is_refused_then_a_good_one_ends_the_question(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    async with httpx.AsyncClient() as client:
        refused = await client.post(
            url + "/answer", json={"kind": "answered", "selected_ids": ["unit", "e2e", "bench"]}
        )
        still = await client.get(url + "/state")
        accepted = await client.post(
            url + "/answer", json={"kind": "answered", "selected_ids": ["e2e"]}
        )
        late = await client.post(url + "/answer", json={"kind": "cancelled"})
    assert refused.status_code == 422
    assert refused.json() == {"problems": ["selected_ids must hold 1 to 2 ids, got 3"]}
    assert still.json()["state"]["status"] == "pending"
    assert accepted.status_code == 200
    assert accepted.json()["state"]["status"] == "answered"
    assert await task == Answered(selected_ids=["e2e"])
    assert late.status_code == 409
    assert late.json()["state"]["status"] == "answered"


async def test_a_reopened_page_shows_the_draft_the_settings_and_the_hidden_options(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    draft = {
        "selected_ids": ["e2e"],
        "custom_input": "",
        "option_annotations": {"e2e": "smoke only"},
        "global_annotation": "",
    }
    async with httpx.AsyncClient() as client:
        saved = await client.post(url + "/draft", json=draft)
        hidden = await client.post(url + "/visibility", json={"hidden_ids": ["bench"]})
        changed = await client.post(url + "/settings", json={"annotations": False})
        reopened = await client.get(url)
    assert (saved.status_code, hidden.status_code, changed.status_code) == (200, 200, 200)
    block = re.search(
        r'<script type="application/json" id="question-state">(.*?)</script>', reopened.text
    )
    assert block is not None
    state = json.loads(block.group(1))
    assert state["draft"] == draft
    assert state["hidden_ids"] == ["bench"]
    assert state["notes"] is False
    task.cancel()


@pytest.mark.parametrize(
    ("path", "body", "headers", "status", "problem"),
    [
        ("/answer", b"{not json", {}, 422, "the body must be JSON"),
        (
            "/draft",
            b'{"custom_input": "' + b"x" * 70_000 + b'"}',
            {},
            413,
            "the body must be at most",
        ),
        (
            "/answer",
            b'{"kind": "maybe"}',
            {},
            422,
            "kind must be one of 'answered', 'cancelled', 'timeout', got 'maybe'",
        ),
        ("/elsewhere", b"{}", {}, 404, "no question with this id is open here"),
        ("/answer", b'{"kind": "cancelled"}', {"Origin": "http://evil.example"}, 403, None),
        ("/answer", b'{"kind": "cancelled"}', {"Content-Type": "text/plain"}, 415, None),
    ],
)
async def test_every_invalid_message_is_refused_and_the_question_stays_pending(
    web: WebTransport,
    path: str,
    body: bytes,
    headers: dict[str, str],
    status: int,
    problem: str | None,
) -> None:
    task, url = await ask(web)
    async with httpx.AsyncClient() as client:
        response = await client.post(
            url + path, content=body, headers={"Content-Type": "application/json"} | headers
        )
        state = (await client.get(url + "/state")).json()["state"]
    assert response.status_code == status
    if problem is not None:
        assert response.json()["problems"][0].startswith(problem), response.json()
    assert state["status"] == "pending"
    task.cancel()


async def test_the_page_and_its_state_refuse_a_foreign_host(web: WebTransport) -> None:
    task, url = await ask(web)
    async with httpx.AsyncClient() as client:
        for address in (url, url + "/state"):
            response = await client.get(address, headers={"Host": "evil.example"})
            assert response.status_code == 403
    task.cancel()


async def test_the_live_socket_pushes_the_state_and_takes_every_message(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    async with websockets.connect(live_address(url), origin=origin_of(url)) as live:  # type: ignore[arg-type]
        first = await next_message(live)
        assert first["type"] == "state"
        assert first["state"]["status"] == "pending"
        await live.send(json.dumps({"type": "draft", "data": {"selected_ids": ["bench"]}}))
        assert await next_message(live) == {"type": "saved", "about": "draft"}
        await live.send(json.dumps({"type": "draft", "data": {"selected_ids": ["x"]}}))
        assert await next_message(live) == {
            "type": "refused",
            "about": "draft",
            "problems": ["selected_ids: 'x' is not an option id"],
        }
        await live.send(json.dumps({"type": "shout", "data": {}}))
        refused = await next_message(live)
        assert refused["type"] == "refused"
        assert refused["problems"][0].startswith("type must be one of 'draft', 'settings'")
        await live.send(json.dumps({"type": "settings", "data": {"annotations": False}}))
        changed = await next_message(live)
        assert (changed["type"], changed["state"]["notes"]) == ("state", False)
        await live.send(json.dumps({"type": "answer", "data": {"kind": "cancelled"}}))
        # The ending, pushed, and the reply to the answer (the page waits for it), either first.
        replies = [await next_message(live), await next_message(live)]
        assert {"type": "saved", "about": "answer"} in replies
        (ended,) = [reply for reply in replies if reply["type"] == "state"]
        assert ended["state"]["status"] == "cancelled"
        await asyncio.wait_for(live.wait_closed(), 5)
    assert await task == Cancelled()


async def test_a_live_socket_needs_the_pages_own_origin_and_a_known_question(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    for address, origin in (
        (live_address(url), "http://evil.example"),
        (live_address(url), None),
        (live_address(origin_of(url) + "/choice/unknown"), origin_of(url)),
    ):
        with pytest.raises(websockets.InvalidStatus) as refused:
            async with websockets.connect(address, origin=origin):  # type: ignore[arg-type]
                pass
        assert refused.value.response.status_code == 403
    task.cancel()


async def test_the_agent_cancelling_the_call_ends_the_page_and_releases_the_bridge(
    web: WebTransport,
) -> None:
    task, url = await ask(web)
    async with websockets.connect(live_address(url), origin=origin_of(url)) as live:  # type: ignore[arg-type]
        await next_message(live)
        task.cancel()
        ended = await next_message(live)
    assert ended["state"]["status"] == "cancelled_by_agent"
    with pytest.raises(asyncio.CancelledError):
        await task
    await until(lambda: web.bridge.base_url is None, "the bridge stops once nothing is pending")


async def test_the_deadline_ends_the_question_and_the_bridge_stops_after_it(
    web: WebTransport,
) -> None:
    task, url = await ask(web, QUESTION | {"timeout_seconds": 1})
    assert await asyncio.wait_for(task, 5) == TimedOut(action="return_defaults")
    async with httpx.AsyncClient() as client:
        state = (await client.get(url + "/state")).json()["state"]
    assert state["status"] == "timeout"
    await until(lambda: web.bridge.base_url is None, "the bridge stops once nothing is pending")


async def test_questions_at_once_share_one_bridge_and_each_gets_its_own_answer(
    web: WebTransport,
) -> None:
    (first, first_url), (second, second_url) = [await ask(web) for _ in range(2)]
    assert origin_of(first_url) == origin_of(second_url)
    assert first_url != second_url
    async with httpx.AsyncClient() as client:
        await client.post(
            second_url + "/answer", json={"kind": "answered", "selected_ids": ["bench"]}
        )
        await client.post(
            first_url + "/answer", json={"kind": "answered", "selected_ids": ["unit"]}
        )
    assert await first == Answered(selected_ids=["unit"])
    assert await second == Answered(selected_ids=["bench"])


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A $BROWSER command that blocks until `<it>.closed` exists. `webbrowser` reads $BROWSER once
    per process, so its registry starts afresh for each test."""
    command = tmp_path / "browser"
    command.write_text(BLOCKING_BROWSER)
    command.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(command))
    monkeypatch.setattr(webbrowser, "_tryorder", None)
    monkeypatch.setattr(webbrowser, "_browsers", {})
    return command


BLOCKING_BROWSER = """#!/bin/sh
# A $BROWSER command that stays in the foreground until the test lets it go.
printf '%s' "$1" > "$0.url"
cat > "$0.stdin"
while [ ! -e "$0.closed" ]; do sleep 0.05; done
"""


async def test_a_browser_that_blocks_does_not_hold_up_the_question(
    browser: Path, tmp_path: Path
) -> None:
    bridge = Bridge(linger_seconds=0.1)
    web = WebTransport(bridge, QuestionRegistry(), open_browser=True)
    try:
        task, url = await ask(web)
        url_file = tmp_path / "browser.url"
        for _ in range(200):
            if url_file.exists() and url_file.read_text():
                break
            await asyncio.sleep(0.05)
        assert url_file.read_text() == url
        async with httpx.AsyncClient() as client:
            await client.post(url + "/answer", json={"kind": "answered", "selected_ids": ["unit"]})
        assert await asyncio.wait_for(task, 5) == Answered(selected_ids=["unit"])
    finally:
        (tmp_path / "browser.closed").touch()
        await bridge.aclose()


async def test_regression_the_browser_command_never_reads_the_servers_stdin(
    browser: Path, tmp_path: Path
) -> None:
    # Over stdio, stdin carries the MCP protocol: a console browser must not consume it.
    (tmp_path / "browser.closed").touch()
    read_end, write_end = os.pipe()
    os.write(write_end, b'{"jsonrpc": "2.0"}\n')
    saved_stdin = os.dup(0)
    os.dup2(read_end, 0)
    stdin_file = tmp_path / "browser.stdin"
    try:
        open_in_browser("http://127.0.0.1:1/choice/x")  # returns at once; a thread starts it
        await until(stdin_file.exists, "the browser command starts")
    finally:
        os.dup2(saved_stdin, 0)
        for descriptor in (read_end, write_end, saved_stdin):
            os.close(descriptor)
    await until(lambda: (tmp_path / "browser.url").exists(), "the browser gets the address")
    assert (tmp_path / "browser.url").read_text() == "http://127.0.0.1:1/choice/x"
    assert stdin_file.read_text() == ""
