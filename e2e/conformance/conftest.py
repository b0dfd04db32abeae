"""What the conformance modules share: their asserts say what differed (as a test module's do),
and the server the page and the hand-off ask through."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

pytest.register_assert_rewrite("conformance", "web_person", "terminal_person")

from mcp import Client  # noqa: E402  (after the rewrite is registered)
from mcp_servers import connected, held  # noqa: E402


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def stdio_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[tuple[Path, Client]]:
    """`provide-choice serve --no-browser` over stdio, spawned by the SDK's client, for a whole
    module; and the settings home it reads."""
    home = tmp_path_factory.mktemp("conformance")
    async with held(connected("stdio", home)) as client:
        yield home, client
