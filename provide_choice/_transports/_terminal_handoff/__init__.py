"""The terminal hand-off: a question answered in a terminal the agent opens (`choice-terminal`).

`TerminalHandoffTransport` imports no FastAPI: its routes (`_routes`) load when the bridge first starts.
`_client` is the `choice-terminal` command.
"""

from provide_choice._transports._terminal_handoff._transport import (
    CLIENT_COMMAND,
    ROUTE_PREFIX,
    TerminalHandoffTransport,
    client_command,
)

__all__ = [
    "CLIENT_COMMAND",
    "ROUTE_PREFIX",
    "TerminalHandoffTransport",
    "client_command",
]
