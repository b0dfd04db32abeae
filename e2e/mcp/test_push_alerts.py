"""Push alerts from `provide-choice serve` as a client starts it (over stdio, the MCP SDK's own
client): a question on its page reaches a JSON webhook served by the test on 127.0.0.1 with its
page's address; an address that refuses the delivery costs one line on the server's stderr and a
note in the history, and the person's answer comes back as fast as ever."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
from alert_environment import environment
from extras import NEEDS_PUSH_EXTRA
from mcp import Client, StdioServerParameters
from mcp_servers import call_on_page, until
from prompts import DATABASE_REQUEST
from provide_choice_harness import COMMAND, history_of
from timing import bound
from webhook import refused_address, webhook

pytest.importorskip("apprise", reason=NEEDS_PUSH_EXTRA)


async def test_a_page_question_is_pushed_with_its_address_and_a_failed_push_only_noted(
    tmp_path: Path,
) -> None:
    errors = tmp_path / "stderr"
    refused = refused_address()
    (tmp_path / "settings.json").write_text(json.dumps({"notify_urls": [refused]}))
    with webhook() as hook:
        parameters = StdioServerParameters(
            command="/bin/sh",
            args=["-c", 'exec "$0" serve --no-browser 2>>"$1"', COMMAND, str(errors)],
            env=environment(tmp_path, PROVIDE_CHOICE_NOTIFY=hook.address),
        )
        async with Client(parameters) as client, httpx.AsyncClient() as http:
            call, page = await call_on_page(client, DATABASE_REQUEST)
            await until(lambda: len(hook.received) == 1, "the push reached the webhook")
            (alert,) = hook.received
            assert alert["title"] == "Question: Database"
            assert alert["message"].splitlines()[1:] == [
                "Options: PostgreSQL, SQLite",
                alert["message"].splitlines()[2],
                f"Answer at {page}.",
            ]
            assert alert["message"].splitlines()[2].endswith(" seconds left.")
            await until(lambda: "not delivered" in errors.read_text(), "the failure was said")
            posted = time.monotonic()
            answer = {"kind": "answered", "selected_ids": ["lite"]}
            assert (await http.post(page + "/answer", json=answer)).status_code == 200
            result = await asyncio.wait_for(call, 10)
            assert time.monotonic() - posted < bound(2)
    assert result.structured_content is not None
    assert result.structured_content["selection"]["selected_ids"] == ["lite"]
    lines = [line for line in errors.read_text().splitlines() if "push alert" in line]
    assert lines == [
        "provide-choice: warning: the push alert for 'Database' was not delivered: "
        f"{refused} did not take it"
    ]
    (entry,) = await asyncio.to_thread(history_of, tmp_path)
    assert entry["alert_failed"] == f"push alert: {refused} did not take it"
