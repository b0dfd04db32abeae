"""The conformance table on the server's own terminal: `provide-choice serve --http 0` in a
pseudo-terminal, the SDK's streamable-HTTP client asking, the person's keys typed into that
terminal. One server for the whole module, its cases one after another."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pexpect
import pytest
from cases import CASES
from conformance import Case, asked_on, assert_conforms, params, write_settings
from mcp import Client
from mcp_servers import call
from provide_choice_harness import spawn_server_terminal
from terminal_person import TerminalPerson

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, pexpect.spawn, str]]:
    """The settings home, the terminal window with the server in it, and its MCP address."""
    home = tmp_path_factory.mktemp("conformance-terminal")
    child, url = spawn_server_terminal(home)
    yield home, child, url
    child.terminate(force=True)


@pytest.mark.parametrize("case", params(CASES, "terminal"))
async def test_the_servers_terminal_gives_the_expected_response(
    case: Case, terminal: tuple[Path, pexpect.spawn, str]
) -> None:
    home, child, url = terminal
    write_settings(home, case)
    responses: list[dict[str, Any]] = []
    try:
        async with Client(url) as client:

            async def ask() -> None:
                responses.append(await call(client, asked_on(case, "terminal")))

            async with anyio.create_task_group() as group:
                group.start_soon(ask)
                await anyio.to_thread.run_sync(TerminalPerson(child, case).play)
    finally:
        await anyio.to_thread.run_sync(read_what_is_left, child)
    (response,) = responses
    assert_conforms(case, "terminal", response)


def read_what_is_left(child: pexpect.spawn) -> None:
    """Read what the terminal still shows of this case, passed or failed, so that the next case
    (or this one's rerun) reads only its own screens (a case that timed out left its settings
    screen unread)."""
    child.expect(pexpect.TIMEOUT, timeout=0.3)
