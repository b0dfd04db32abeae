"""The provide_choice tool's published schemas are read from a file at the server's start
(`_server/_tool_schemas`): the file must be what the models generate, and the server must publish
the models' schemas whatever the file says when it was not written for its transports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client

from provide_choice import create_server
from provide_choice._server import _tool_schemas
from provide_choice._server._tool_schemas import SCHEMAS_FILE, ToolSchemas, generated, published
from provide_choice._transports._plug_ins import load_plugins

AS_SERVED = (
    "from provide_choice._transports._plug_ins import load_plugins\n"
    "from provide_choice._server._tool_schemas import as_written, generated\n"
    "load_plugins()\n"  # as `provide-choice serve` does
    "print(as_written(generated()), end='')\n"
)


def test_the_stored_schemas_are_what_the_models_generate() -> None:
    # In a fresh process, with the plug-ins installed as `serve` loads them.
    fresh = subprocess.run(
        [sys.executable, "-c", AS_SERVED], capture_output=True, text=True, check=True
    ).stdout
    assert SCHEMAS_FILE.read_text(encoding="utf-8") == fresh, (
        f"{SCHEMAS_FILE.name} differs from what the models generate: run `make schemas`"
    )


async def test_the_server_publishes_the_stored_schemas_without_generating_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    load_plugins()  # the transports the file was written for
    stored = json.loads(SCHEMAS_FILE.read_text(encoding="utf-8"))

    def refused() -> ToolSchemas:
        raise AssertionError("generated although the file was written for these transports")

    monkeypatch.setattr(_tool_schemas, "generated", refused)
    async with Client(create_server()) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert tools["provide_choice"].input_schema == stored["input"]
    assert tools["provide_choice"].output_schema == stored["output"]


def test_without_the_file_the_schemas_are_generated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_tool_schemas, "SCHEMAS_FILE", tmp_path / "tool_schemas.json")
    assert published() == generated()


def test_a_file_written_for_other_transports_is_not_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "tool_schemas.json"
    stale = json.loads(SCHEMAS_FILE.read_text(encoding="utf-8"))
    stale["transports"].append("carrier_pigeon")
    stale["input"] = {"type": "object", "description": "not this one"}
    other.write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(_tool_schemas, "SCHEMAS_FILE", other)
    assert published() == generated()
