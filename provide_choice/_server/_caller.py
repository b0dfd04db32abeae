"""`McpCaller`: the MCP client of one tool call, as the transports see it (`Caller`).

What a client can show is read per connection, from the capabilities it declared: `form` and `url`
under `elicitation`, where a bare `"elicitation": {}` (the shape from before modes existed) means
form only, and MCP Apps under `extensions`. The protocol revision decides how a question reaches it: a request during the call on
2025-11-25, an `input_required` result on 2026-07-28.
"""

from __future__ import annotations

from mcp.server.apps import client_supports_apps
from mcp.server.mcpserver import Context
from mcp.shared.message import ServerMessageMetadata
from mcp_types import ClientCapabilities, ElicitRequest, ElicitRequestParams, ElicitResult
from mcp_types.version import is_version_at_least

from provide_choice._contract._transport_table import ClientFeatures

INPUT_REQUIRED_VERSION = "2026-07-28"
"""The first revision where a server asks the client through `input_required` results."""


class McpCaller:
    """The client behind `context`, for the transports of one call."""

    def __init__(self, context: Context) -> None:
        self._context = context
        self.features = client_features(
            context.client_capabilities, apps=client_supports_apps(context)
        )
        version = context.protocol_version
        self.input_required = version is not None and is_version_at_least(
            version, INPUT_REQUIRED_VERSION
        )

    async def elicit(self, params: ElicitRequestParams) -> ElicitResult:
        context = self._context
        result: ElicitResult = await context.session.send_request(
            ElicitRequest(params=params),
            ElicitResult,
            metadata=ServerMessageMetadata(related_request_id=context.request_id),
        )
        return result

    async def elicitation_complete(self, elicitation_id: str) -> None:
        # 2026-07-28 removed the notification: the retried call's own result says it ended.
        if not self.input_required:
            await self._context.session.send_elicit_complete(elicitation_id)


def client_features(
    capabilities: ClientCapabilities | None, *, apps: bool = False
) -> ClientFeatures:
    """What a client can show, from its declared capabilities (`apps`: whether it declared MCP
    Apps, as the SDK's `client_supports_apps` reads it)."""
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None:
        return ClientFeatures(apps=apps)
    bare = elicitation.form is None and elicitation.url is None
    return ClientFeatures(
        form=bare or elicitation.form is not None, url=elicitation.url is not None, apps=apps
    )
