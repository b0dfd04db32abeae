"""The official TypeScript MCP client, with its default options, against `provide-choice serve`.

Its requests time out after 60 s and progress does not reset that unless a client opts in, which
the MCP Inspector and several desktop clients cannot. A question left open must come back
`pending` in time, with the page's address, and the answer must reach a later poll.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from attended import attended_environment
from provide_choice_harness import COMMAND

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")
SDK = ROOT / "node_modules" / "@modelcontextprotocol" / "sdk"

pytestmark = pytest.mark.skipif(
    NODE is None or not SDK.is_dir(),
    reason="needs Node.js and the TypeScript MCP SDK (`make test` runs `npm ci` where npm is found)",
)

QUESTION = {
    "title": "Release",
    "prompt": "Which checks should run before tagging?",
    "selection_mode": "multi",
    "options": [
        {"id": "unit", "label": "Unit tests", "recommended": True},
        {"id": "e2e", "label": "Browser tests"},
    ],
}


class TypeScriptClient:
    """`node e2e/ts_client.mjs`: one tool call per line written, one result per line read."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.server = self.read()["server"]

    def call(self, arguments: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(arguments) + "\n")
        self.process.stdin.flush()
        reply = self.read()
        assert "error" not in reply, reply["error"]
        result: dict[str, Any] = reply["result"]
        return result

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the TypeScript client ended early"
        reply: dict[str, Any] = json.loads(line)
        return reply


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TypeScriptClient]:
    assert NODE is not None
    process = subprocess.Popen(
        [
            NODE,
            str(Path(__file__).with_name("ts_client.mjs")),
            COMMAND,
            "serve",
            "--no-browser",
            "--max-wait",
            "3",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=attended_environment(tmp_path),
    )
    try:
        yield TypeScriptClient(process)
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(15)


def test_the_typescript_client_with_its_defaults_gets_pending_then_the_answer(
    client: TypeScriptClient,
) -> None:
    from importlib.metadata import version

    assert client.server == {"name": "provide-choice", "version": version("agent-choices")}
    first = client.call(QUESTION)["structuredContent"]
    assert first["action_status"] == "pending"
    url, session_id = first["selection"]["url"], first["selection"]["session_id"]
    assert httpx.get(url + "/state").json()["state"]["status"] == "pending"
    answer = {"kind": "answered", "selected_ids": ["e2e"]}
    assert httpx.post(url + "/answer", json=answer).is_success
    final = client.call({"session_id": session_id})
    again = client.call({"session_id": session_id})
    assert final["structuredContent"]["action_status"] == "selected"
    assert final["structuredContent"]["selection"]["selected_ids"] == ["e2e"]
    assert final["structuredContent"]["selection"]["url"] == url
    assert again["isError"] is True
    assert "single-use" in again["content"][0]["text"]
