"""`provide-choice serve` started as a user would, with the MCP SDK's own client connected to it."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from provide_choice_harness import COMMAND


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "AGENT_CHOICES_HOME": str(home)}


@asynccontextmanager
async def connected(
    transport: str, home: Path, *options: str, **client_options: Any
) -> AsyncIterator[Client]:
    """A client (`mcp.Client(..., **client_options)`) of `provide-choice serve --no-browser
    OPTIONS`: spawned over stdio, or started with `--http 0` and no terminal."""
    arguments = ["serve", "--no-browser", *options]
    if transport == "stdio":
        parameters = StdioServerParameters(command=COMMAND, args=arguments, env=environment(home))
        async with Client(parameters, **client_options) as client:
            yield client
        return
    server, url = await anyio.to_thread.run_sync(start_http_server, arguments, home)
    try:
        async with Client(url, **client_options) as client:
            yield client
    finally:
        server.terminate()
        server.wait(10)


def start_http_server(arguments: list[str], home: Path) -> tuple[subprocess.Popen[str], str]:
    """`provide-choice ARGUMENTS --http 0` without a terminal, and the MCP address it printed."""
    server = subprocess.Popen(
        [COMMAND, *arguments, "--http", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment(home),
        text=True,
    )
    assert server.stderr is not None
    found = re.search(r"MCP server at (\S+/mcp)", server.stderr.readline())
    assert found, "the server did not print its address"
    return server, found.group(1)


async def until(condition: Callable[[], bool], message: str, seconds: float = 10.0) -> None:
    """Return as soon as `condition()` holds; fail with `message` after `seconds`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, f"{message} (waited {seconds} s)"
        await asyncio.sleep(0.02)
