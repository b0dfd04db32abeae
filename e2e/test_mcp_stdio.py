"""`provide-choice serve` spawned by the MCP SDK's stdio client, as an MCP client would run it."""

from __future__ import annotations

import os
from pathlib import Path

from mcp import Client, StdioServerParameters
from mcp_types import TextContent
from provide_choice_harness import COMMAND


def server(home: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser"],
        env={**os.environ, "AGENT_CHOICES_HOME": str(home)},
    )


async def test_stdio_server_lists_tools_and_refuses_an_invalid_request(tmp_path: Path) -> None:
    async with Client(server(tmp_path)) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        invalid = await client.call_tool(
            "provide_choice",
            {"title": "Deploy", "selection_mode": "multi", "options": [], "min_selections": 2},
        )
        valid = await client.call_tool(
            "provide_choice",
            {
                "title": "Deploy",
                "prompt": "Which service should I deploy first?",
                "selection_mode": "single",
                "timeout_seconds": 1,
                "options": [
                    {"id": "api", "label": "API", "recommended": True},
                    {"id": "web", "label": "Web"},
                ],
            },
        )
    assert tools == {"provide_choice", "present_choices"}
    assert invalid.is_error
    (content,) = invalid.content
    assert isinstance(content, TextContent)
    assert content.text.splitlines()[1:] == [
        "- prompt is required",
        "- options must have at least 2 items for multi, got 0",
        "- min_selections must be at most the number of options (0), got 2",
    ]
    # Over stdio the terminal belongs to the client, so the question waits in the web portal
    # (nobody opens it here: it times out).
    assert not valid.is_error
    assert valid.structured_content is not None
    assert valid.structured_content["action_status"] == "timeout"
    assert valid.structured_content["selection"]["transport"] == "web"
