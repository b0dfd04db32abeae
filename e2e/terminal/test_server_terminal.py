"""`provide-choice serve --http` running in a real terminal, driven by the MCP SDK's client over
HTTP, with the answers typed into that terminal."""

from __future__ import annotations

import re
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pexpect
import pytest
from mcp import Client
from mcp_types import CallToolResult
from provide_choice_harness import (
    CTRL_C,
    DOWN,
    ENTER,
    continue_with_settings,
    expect_plain,
    plain,
    spawn_server_terminal,
)

QUESTION = {
    "title": "Release",
    "prompt": "Tests pass on main. How should I release?",
    "selection_mode": "single",
    "options": [
        {"id": "tag", "label": "Tag and publish", "recommended": True},
        {"id": "draft", "label": "Draft release only"},
    ],
}


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[tuple[pexpect.spawn, str]]:
    """The server in a terminal window of its own, and the URL it serves MCP on."""
    child, url = spawn_server_terminal(tmp_path)
    yield child, url
    child.terminate(force=True)


async def expect_in(child: pexpect.spawn, text: str) -> None:
    await anyio.to_thread.run_sync(expect_plain, child, text)


async def ask(url: str, results: list[CallToolResult]) -> None:
    async with Client(url) as client:
        results.append(await client.call_tool("provide_choice", QUESTION))


def raw_mode(child: pexpect.spawn) -> bool:
    """Whether the terminal is in a prompt's raw mode (no line editing) rather than restored."""
    local_flags = termios.tcgetattr(child.child_fd)[3]
    return not local_flags & termios.ICANON


def output_so_far(child: pexpect.spawn) -> str:
    """Everything the terminal showed since the last expectation, as plain text."""
    child.expect(pexpect.TIMEOUT, timeout=0.3)
    return plain(child.before)


def wait_until_restored(child: pexpect.spawn, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while raw_mode(child):
        assert time.monotonic() < deadline, "the prompt did not give the terminal back"
        time.sleep(0.05)


async def test_the_question_appears_in_the_server_terminal_and_the_answer_comes_back(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    child, url = terminal
    results: list[CallToolResult] = []
    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, results)
        await anyio.to_thread.run_sync(continue_with_settings, child)
        await expect_in(child, "Tests pass on main. How should I release?")
        child.send(DOWN + ENTER)
    (result,) = results
    assert result.structured_content["action_status"] == "selected"
    assert result.structured_content["selection"]["selected_ids"] == ["draft"]
    assert result.structured_content["selection"]["transport"] == "terminal"


async def test_ctrl_c_cancels_the_question_not_the_server(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    child, url = terminal
    results: list[CallToolResult] = []
    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, results)
        await anyio.to_thread.run_sync(continue_with_settings, child)
        await expect_in(child, "Choose one")
        child.send(CTRL_C)
    assert results[0].structured_content["action_status"] == "cancelled"
    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, results)
        await anyio.to_thread.run_sync(continue_with_settings, child)
        await expect_in(child, "Choose one")
        child.send(ENTER)
    assert results[1].structured_content["selection"]["selected_ids"] == ["tag"]


async def test_client_cancellation_closes_the_prompt_and_restores_the_terminal(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    child, url = terminal
    async with Client(url) as client:
        with anyio.move_on_after(30) as scope:
            async with anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "provide_choice", QUESTION)
                await expect_in(child, "Continue with these settings")
                assert raw_mode(child)
                group.cancel_scope.cancel()
        assert not scope.cancelled_caught
        # Said as the agent's cancel, never as the person's.
        await expect_in(child, "Cancelled by the agent before the person answered")
        await anyio.to_thread.run_sync(wait_until_restored, child)
        # The next question is asked normally in the same terminal.
        results: list[CallToolResult] = []
        async with anyio.create_task_group() as group:
            group.start_soon(ask, url, results)
            await anyio.to_thread.run_sync(continue_with_settings, child)
            await expect_in(child, "Choose one")
            child.send(ENTER)
    assert re.fullmatch(
        r"Selected: Tag and publish\.", results[0].structured_content["selection"]["summary"]
    )


async def test_concurrent_questions_take_turns_within_their_own_deadlines(
    terminal: tuple[pexpect.spawn, str],
) -> None:
    child, url = terminal
    first: list[CallToolResult] = []
    second: list[CallToolResult] = []

    async def ask_briefly() -> None:
        async with Client(url) as client:
            second.append(
                await client.call_tool("provide_choice", QUESTION | {"timeout_seconds": 2})
            )

    async with anyio.create_task_group() as group:
        group.start_soon(ask, url, first)
        await anyio.to_thread.run_sync(continue_with_settings, child)
        await expect_in(child, "Choose one")
        await ask_briefly()  # waits behind the question on screen, then times out
        shown_meanwhile = await anyio.to_thread.run_sync(output_so_far, child)
        child.send(ENTER)
    assert "Continue with these settings" not in shown_meanwhile
    assert second[0].structured_content["action_status"] == "timeout"
    assert first[0].structured_content["selection"]["selected_ids"] == ["tag"]


async def test_a_call_past_max_wait_returns_pending_and_the_prompt_stays_for_the_poll(
    tmp_path: Path,
) -> None:
    child, url = spawn_server_terminal(tmp_path, "--max-wait", "2")
    try:
        async with Client(url) as client:
            pending = await client.call_tool("provide_choice", QUESTION)
            await expect_in(child, "Continue with these settings")
            assert pending.structured_content["action_status"] == "pending"
            selection = pending.structured_content["selection"]
            assert selection["transport"] == "terminal"
            assert selection["url"] is None  # no page: the question is in this terminal
            assert raw_mode(child)  # the prompt is still there, untouched
            results: list[CallToolResult] = []

            async def poll() -> None:
                arguments = {"session_id": selection["session_id"]}
                results.append(await client.call_tool("provide_choice", arguments))

            async with anyio.create_task_group() as group:
                group.start_soon(poll)
                child.send(ENTER)  # continue with the settings, on the screen shown all along
                await expect_in(child, "Choose one")
                child.send(DOWN + ENTER)
    finally:
        child.terminate(force=True)
    assert results[0].structured_content["action_status"] == "selected"
    assert results[0].structured_content["selection"]["selected_ids"] == ["draft"]
