"""A call waiting for the person, as its client sees it: progress notifications with the time left.

Clients time a tool call out (the TypeScript SDK after 60 s) unless progress resets their timer, and
may hide the server's stderr: each notification says where the question is shown and how long it
has left, so a person watching the client knows where to answer. Progress is elapsed time, which
only ever grows, over the total the agent set (or the person extended).
"""

from __future__ import annotations

import time

import anyio
from mcp.server.mcpserver import Context

from provide_choice._question import PendingQuestion


async def wait_with_progress(
    question: PendingQuestion,
    context: Context,
    heartbeat_seconds: float,
    *,
    until_store_away: bool,
) -> None:
    """Wait for the question's outcome, reporting the time left as progress meanwhile (at least
    every `heartbeat_seconds`), and at once when the question's address or deadline changes.
    With `until_store_away`, stop as soon as the shared store cannot be reached: the agent hears
    `pending` and why at once, not at `--max-wait` (no answer can reach this call while the
    store is away)."""

    async def heartbeat() -> None:
        while True:
            if until_store_away and question.store_problem is not None:
                group.cancel_scope.cancel()
                return
            question.changed.clear()
            left = question.seconds_left()
            # Whole seconds for the total (the timeout as the agent set it, or as the person
            # extended it); elapsed time as progress, which only ever grows.
            total = round(question.interaction.deadline - question.started)
            elapsed = min(round(time.monotonic() - question.started, 1), total)
            where = f" at {question.url}" if question.url else ""
            await context.report_progress(
                elapsed,
                total,
                f"Waiting for the person to answer{where}: {left:.0f} s left",
            )
            with anyio.move_on_after(heartbeat_seconds):
                await question.changed.wait()

    async with anyio.create_task_group() as group:
        group.start_soon(heartbeat)
        await question.wait()
        group.cancel_scope.cancel()
