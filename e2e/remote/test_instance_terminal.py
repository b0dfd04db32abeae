"""An instance of several (`serve --http --redis`) started in a terminal, as the remote page shows:
a question that names no transport is asked on its page, which every instance serves, and the
terminal shows one line with the page's address instead of the question (whichever instance the
proxy's round robin hit); a question that names the terminal is drawn there, as ever. Its start-up
line says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pexpect
import pytest
from mcp import Client
from mcp_types import CallToolResult
from provide_choice_harness import ENTER, expect_plain, plain, spawn_server_terminal
from redis_server import RedisServer
from remote_instances import QUESTION

AUTOMATIC = {name: value for name, value in QUESTION.items() if name != "transport"}


@pytest.fixture
def terminal(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[pexpect.spawn, str]]:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    child, url = spawn_server_terminal(home, "--no-browser", "--redis", redis_server.url)
    yield child, url
    child.terminate(force=True)


async def ask(url: str, request: dict[str, object], results: list[CallToolResult]) -> None:
    async with Client(url) as client:
        results.append(await client.call_tool("provide_choice", request))


def selection(results: list[CallToolResult]) -> dict[str, object]:
    (result,) = results
    assert result.structured_content is not None, result.content
    return dict(result.structured_content["selection"])


async def test_auto_asks_on_the_page_and_the_terminal_only_when_named(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    child, url = terminal
    # The rest of its first line, after the address.
    expect_plain(
        child,
        "questions open on their page, which every instance sharing them serves (--redis); one "
        "that names the terminal appears in this terminal.",
    )

    results: list[CallToolResult] = []
    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, AUTOMATIC, results)
        await anyio.to_thread.run_sync(child.expect, r"question waiting at (http://\S+/choice/\w+)")
        page = child.match.group(1)
        before = await anyio.to_thread.run_sync(_shown_for_a_moment, child)
        assert "Continue with these settings" not in before, "the question was drawn here"
        async with httpx.AsyncClient() as http:
            answer = {"kind": "answered", "selected_ids": ["web"]}
            assert (await http.post(page + "/answer", json=answer)).status_code == 200
    assert selection(results)["transport"] == "web"
    assert selection(results)["selected_ids"] == ["web"]

    results.clear()
    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, AUTOMATIC | {"transport": "terminal"}, results)
        await anyio.to_thread.run_sync(expect_plain, child, "Continue with these settings")
        child.send(ENTER)
        await anyio.to_thread.run_sync(expect_plain, child, "Choose one")
        child.send(ENTER)
    assert selection(results)["transport"] == "terminal"
    assert selection(results)["selected_ids"] == ["api"]


def _shown_for_a_moment(child: pexpect.spawn) -> str:
    child.expect(pexpect.TIMEOUT, timeout=0.5)
    return plain(child.before)
