"""The conformance table on the hand-off terminal: `provide-choice serve` over stdio, spawned by
the SDK's client as an agent's client would; each question comes back `pending_terminal_launch`,
its command runs in a pseudo-terminal where the person's keys are typed, and the answer is fetched
with `session_id`. One server for the whole module."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from cases import CASES
from conformance import Case, Wait, asked_on, assert_conforms, params, write_settings
from mcp import Client
from mcp_servers import launch, poll
from provide_choice_harness import finish, run_summary
from terminal_person import TerminalPerson

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("case", params(CASES, "terminal_handoff"))
async def test_the_handoff_terminal_gives_the_expected_response(
    case: Case, stdio_server: tuple[Path, Client]
) -> None:
    home, client = stdio_server
    write_settings(home, case)
    selection = await launch(client, asked_on(case, "terminal_handoff"))
    child = run_summary(selection, home)
    try:
        await anyio.to_thread.run_sync(TerminalPerson(child, case).play)
        status, shown = await anyio.to_thread.run_sync(finish, child)
    finally:
        child.close(force=True)
    response = await poll(client, selection["session_id"])
    # A person who waits may find the question expired before the command claims it: a refusal.
    if not isinstance(case.actions[-1], Wait):
        assert status == 0, shown
    assert_conforms(case, "terminal_handoff", response)
