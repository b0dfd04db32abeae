"""The `provide_choice` tool's published schemas, kept in `tool_schemas.json` beside this module.

Both come from the contract's models: the input from the request (`tool_input_schema`), the output
from the response, as the MCP SDK derives a tool's output schema. Generating them builds those
models, which the server otherwise builds after its first `tools/list`, in the background
(`_warming`); at start that was 10 to 20 ms of the time to the first `tools/list`. So `make
schemas` writes them (`python -m provide_choice._server._tool_schemas`), the server reads the file,
and a unit test fails, naming that command, while the file differs from what the models generate.

The schemas name the registered transports (a plug-in's too), so the file says which it was written
for (the package's own, with its Telegram and Slack plug-ins): a server with others, or without the
file, generates them, slower and as right.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict

from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata

from provide_choice._contract._response import ProvideChoiceResponse
from provide_choice._contract._tool_schema import tool_input_schema
from provide_choice._contract._transport_table import transport_names, wish_names
from provide_choice._transports._plug_ins import load_plugins
from provide_choice._transports._raw_tool import RawArguments

SCHEMAS_FILE = Path(__file__).with_name("tool_schemas.json")


class ToolSchemas(TypedDict):
    """The tool's JSON Schemas, what it takes and what a successful call returns, and the
    transports they name: every one a response may name, and those a request may."""

    transports: list[str]
    wishes: list[str]
    input: dict[str, Any]
    output: dict[str, Any]


def generated() -> ToolSchemas:
    """The schemas as the models give them now, for the transports registered now."""
    derived = FuncMetadata(arg_model=RawArguments, output_model=ProvideChoiceResponse)
    assert derived.output_schema is not None  # derived from output_model, or raised
    return ToolSchemas(
        transports=list(transport_names()),
        wishes=list(wish_names()),
        input=tool_input_schema(),
        output=derived.output_schema,
    )


def published() -> ToolSchemas:
    """The schemas the server publishes: the file's, when written for the transports registered
    now; else generated."""
    try:
        stored: ToolSchemas = json.loads(SCHEMAS_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return generated()
    if (stored["transports"], stored["wishes"]) != (list(transport_names()), list(wish_names())):
        return generated()
    return stored


def as_written(schemas: ToolSchemas) -> str:
    """The file's text for `schemas`: indented, in the models' order, ending with a newline."""
    return json.dumps(schemas, indent=2, ensure_ascii=False) + "\n"


def write() -> None:
    """Write the file for the package's own transports and its installed plug-ins."""
    load_plugins()
    SCHEMAS_FILE.write_text(as_written(generated()), encoding="utf-8")
    print(f"wrote {SCHEMAS_FILE}")


if __name__ == "__main__":
    write()
