"""A tool that takes its arguments raw and publishes a hand-written input schema.

The server's tools validate their arguments themselves, so an agent gets one error result listing
every problem in its own words (unknown fields included: the SDK would silently drop them). The
server builds its own tools with `raw_tool`, and so does a transport that adds one (the app's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict


class RawArguments(ArgModelBase):
    """Takes the arguments as they came, so the tool reports every problem in them itself."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def raw_tool(
    function: Callable[..., Awaitable[CallToolResult | InputRequiredResult]],
    *,
    name: str,
    description: str,
    parameters: dict[str, Any],
    annotations: ToolAnnotations,
    output_model: type[BaseModel] | None = None,
    output_schema: dict[str, Any] | None = None,
    takes_context: bool = False,
    meta: dict[str, Any] | None = None,
) -> Tool:
    """A tool that receives its raw arguments (and the context when `takes_context`) and publishes
    a hand-written input schema; with `output_model`, successful results are checked against it,
    and its JSON Schema is published (`output_schema`, else derived from the model at once).
    `meta` is the tool's `_meta` (where an MCP Apps host finds the tool's view)."""
    return Tool(
        fn=function,
        name=name,
        description=description,
        parameters=parameters,
        fn_metadata=FuncMetadata(
            arg_model=RawArguments, output_model=output_model, output_schema=output_schema
        ),
        is_async=True,
        context_kwarg="context" if takes_context else None,
        annotations=annotations,
        meta=meta,
    )
