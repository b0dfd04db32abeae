"""A stand-in for the MCP client of a call, for transports driven without one."""

from __future__ import annotations

from mcp_types import ElicitRequestParams, ElicitResult

from provide_choice._contract._transport_table import ClientFeatures


class PlainCaller:
    """A client that declared no elicitation: transports open pages and terminals themselves."""

    features = ClientFeatures()
    input_required = False

    async def elicit(self, params: ElicitRequestParams) -> ElicitResult:
        raise AssertionError("a client without elicitation was sent elicitation/create")

    async def elicitation_complete(self, elicitation_id: str) -> None:
        raise AssertionError("a client without elicitation was told one completed")
