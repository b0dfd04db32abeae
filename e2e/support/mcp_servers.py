"""`provide-choice serve` started as a user would, with the MCP SDK's own client connected to it."""

from __future__ import annotations

import asyncio
import re
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from attended import attended_environment
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import CallToolResult, TextContent
from provide_choice_harness import COMMAND

PAGE_ADDRESS = re.compile(r" at (https?://[^/\s]+(?:/\S*)?/choice/\w+): \d+ s left")
"""Where a progress notification says the question's page is (with `--no-browser`, the only word
of it before the call returns)."""
ADDRESS_WITHIN_LINES = 5
"""How many lines a server the tests start says on stderr before its address, at most."""
TOKEN = "a-token-for-the-tests-of-provide-choice-0123"
"""`$PROVIDE_CHOICE_TOKEN` of every server the tests start: what their MCP clients send."""


def environment(home: Path) -> dict[str, str]:
    """The environment of a server the tests start: attended (`attended_environment`), with a
    data directory of the test's own and the tests' token."""
    return attended_environment(home, PROVIDE_CHOICE_TOKEN=TOKEN)


@asynccontextmanager
async def http_client(
    url: str, token: str | None = TOKEN, headers: dict[str, str] | None = None, **options: Any
) -> AsyncIterator[Client]:
    """The MCP SDK's client (`mcp.Client(..., **options)`) of the server at `url`, sending `token`
    as `Authorization: Bearer` (None: no token) and any other `headers`."""
    sent = dict(headers or {}) | ({} if token is None else {"Authorization": f"Bearer {token}"})
    async with (
        create_mcp_http_client(headers=sent) as http,
        Client(streamable_http_client(url, http_client=http), **options) as client,
    ):
        yield client


@asynccontextmanager
async def connected(
    transport: str, home: Path, *options: str, **client_options: Any
) -> AsyncIterator[Client]:
    """A client (`mcp.Client(..., **client_options)`) of `provide-choice serve --no-browser
    OPTIONS`: spawned over stdio, or started with `--http 0` and no terminal."""
    arguments = ["serve", "--no-browser", *options]
    if transport == "stdio":
        parameters = StdioServerParameters(
            command=COMMAND, args=arguments, env=attended_environment(home)
        )
        async with Client(parameters, **client_options) as client:
            yield client
        return
    server, url = await anyio.to_thread.run_sync(start_http_server, arguments, home)
    try:
        async with http_client(url, **client_options) as client:
            yield client
    finally:
        server.terminate()
        server.wait(10)


def start_http_server(
    arguments: list[str],
    home: Path,
    environment_variables: dict[str, str] | None = None,
    port: int = 0,
) -> tuple[subprocess.Popen[str], str]:
    """`provide-choice ARGUMENTS --http PORT` without a terminal, and the MCP address it printed
    (its environment: `environment(home)`, or `environment_variables`)."""
    server = subprocess.Popen(
        [COMMAND, *arguments, "--http", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment(home) if environment_variables is None else environment_variables,
        text=True,
    )
    assert server.stderr is not None
    said = []
    for line in server.stderr:  # a line before it may say what it made private, say
        said.append(line)
        if found := re.search(r"MCP server at (\S+/mcp)", line):
            return server, found.group(1)
        if len(said) == ADDRESS_WITHIN_LINES:
            break
    server.kill()
    raise AssertionError(f"the server did not print its address; it said: {''.join(said)!r}")


async def until(condition: Callable[[], bool], message: str, seconds: float = 10.0) -> None:
    """Return as soon as `condition()` holds; fail with `message` after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, f"{message} (waited {seconds} s)"
        await asyncio.sleep(0.02)


@asynccontextmanager
async def held(connection: AbstractAsyncContextManager[Client]) -> AsyncIterator[Client]:
    """The client of `connection`, held open by a task of its own, so that a module-scoped fixture
    can hand it to every test of the module: anyio's scopes inside the client must be left in the
    task that entered them, and a fixture is set up and torn down in different tasks."""
    ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()

    async def hold() -> None:
        async with connection as client:
            ready.set_result(client)
            await stop.wait()

    holding = asyncio.create_task(hold())
    started: list[asyncio.Future[Any]] = [holding, ready]
    await asyncio.wait(started, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if holding.done():
        holding.result()  # the reason it could not start
    assert ready.done(), "the server did not start within 30 s"
    try:
        yield ready.result()
    finally:
        stop.set()
        await holding


async def call_on_page(
    client: Client, request: dict[str, Any]
) -> tuple[asyncio.Task[CallToolResult], str]:
    """Start the call, and return it with the address of its page, as the server's progress
    notifications report it (the server runs with `--no-browser`)."""
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = PAGE_ADDRESS.search(message or "")
        if found and not address.done():
            address.set_result(found.group(1))

    call = asyncio.create_task(
        client.call_tool("provide_choice", request, progress_callback=on_progress)
    )
    either: list[asyncio.Future[Any]] = [call, address]
    await asyncio.wait(either, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    if not address.done():
        call.cancel()
        ended = call.result() if call.done() else "no address in 10 s"
        raise AssertionError(f"no progress notification named the page: {ended}")
    return call, address.result()


class Calls:
    """One test's calls of the tool on a client it may share with other tests. Those still waiting
    when the test ends, passed or failed, are cancelled (`cancel_unfinished`, from a fixture):
    a question a failed try left waiting would be counted, or shown, by the next test."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.calls: list[asyncio.Task[CallToolResult]] = []

    def start(self, request: dict[str, Any], **options: Any) -> asyncio.Task[CallToolResult]:
        call = asyncio.create_task(self.client.call_tool("provide_choice", request, **options))
        self.calls.append(call)
        return call

    async def on_page(self, request: dict[str, Any]) -> tuple[asyncio.Task[CallToolResult], str]:
        """`call_on_page`, the call remembered."""
        call, address = await call_on_page(self.client, request)
        self.calls.append(call)
        return call, address

    async def cancel_unfinished(self) -> None:
        for call in self.calls:
            call.cancel()
        await asyncio.gather(*self.calls, return_exceptions=True)
        self.calls.clear()


def structured(result: CallToolResult) -> dict[str, Any]:
    """A successful tool result's structured content; a failed one fails the test with its text."""
    assert not result.is_error, text_of(result)
    content: dict[str, Any] | None = result.structured_content
    assert content is not None
    return content


async def call(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    return structured(await client.call_tool("provide_choice", arguments))


async def launch(client: Client, request: dict[str, Any]) -> dict[str, Any]:
    """Ask a question handed off to a terminal: the selection of its `pending_terminal_launch`
    response (the command to run is its `summary`)."""
    response = await call(client, request)
    assert response["action_status"] == "pending_terminal_launch", response
    selection: dict[str, Any] = response["selection"]
    return selection


async def poll(client: Client, session_id: str) -> dict[str, Any]:
    """Wait for the answer of a question that returned pending or pending_terminal_launch."""
    return await call(client, {"session_id": session_id})


async def poll_until_ended(client: Client, session_id: str, polls: int = 30) -> dict[str, Any]:
    """Poll as an agent does, again while the answer is `pending` (each poll returns so at
    `--max-wait`), at most `polls` times: the response the question ended with."""
    for _ in range(polls):
        response = await poll(client, session_id)
        if response["action_status"] != "pending":
            return response
    raise AssertionError(f"still pending after {polls} polls")


def text_of(result: CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return content.text
