"""Everything the app transport adds to the MCP server, in one place: the views of both tools
(`_meta.ui.resourceUri`), the views themselves under the MCP Apps extension, the app-only tool
the provide_choice view answers through, and the middleware that lists that tool only to clients
that draw apps. Removing the app transport removes all of it with this folder."""

from __future__ import annotations

from mcp_types import ToolAnnotations

from present_choices import TOOL_NAME as PRESENT_CHOICES_TOOL
from provide_choice._transports._app._questions import AppQuestions
from provide_choice._transports._app._tool import TOOL_DESCRIPTION, TOOL_NAME, AppTool
from provide_choice._transports._app._tool import parameters_schema as tool_schema
from provide_choice._transports._app._views import (
    PRESENT_CHOICES_VIEW,
    PROVIDE_CHOICE_VIEW,
    apps_extension,
    view_meta,
)
from provide_choice._transports._app._visibility import AppOnlyToolsListedToApps, app_only_meta
from provide_choice._transports._base import ServerParts
from provide_choice._transports._raw_tool import raw_tool

PROVIDE_CHOICE_TOOL = "provide_choice"


def app_server_parts(questions: AppQuestions) -> ServerParts:
    """The app transport's parts on the server, over the questions it shows."""
    answer_tool = raw_tool(
        AppTool(questions),
        name=TOOL_NAME,
        description=TOOL_DESCRIPTION,
        parameters=tool_schema(),
        annotations=ToolAnnotations(title="Answer in the conversation", read_only_hint=False),
        meta=app_only_meta(),
    )
    return ServerParts(
        tools=(answer_tool,),
        tool_meta={
            PROVIDE_CHOICE_TOOL: view_meta(PROVIDE_CHOICE_VIEW),
            PRESENT_CHOICES_TOOL: view_meta(PRESENT_CHOICES_VIEW),
        },
        extensions=(apps_extension(),),
        middleware=(AppOnlyToolsListedToApps(),),
    )
