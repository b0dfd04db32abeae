"""The kinds of transport, each described once: its name, how settings name it, when it is usable.

A question can be shown in four places: this server's own terminal, a terminal the agent opens (the
hand-off), a local web page, or the MCP client's own dialog (elicitation). Every surface that names
them (the request's `transport`, the person's preference in the terminal's settings screen and the
page's settings panel, the response's `selection.transport`) reads them from `TRANSPORT_KINDS`, and
`candidates` turns a wish into the kinds to try in order. Adding a transport is one module (the
`Transport` that shows it) plus one entry here.

This module imports nothing of the package: the request, the settings and the response all use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

TransportName = Literal["terminal", "terminal_handoff", "web", "elicitation", "app"]
RequestedTransport = Literal["terminal", "web", "elicitation", "app"]
"""What an agent may ask for: `terminal` means a terminal, this server's or one the agent opens."""
PreferredTransport = Literal["auto", "terminal", "web", "elicitation", "app"]
"""What the person may prefer when the agent names no transport."""


@dataclass(frozen=True)
class ClientFeatures:
    """What the MCP client of one connection declared it can show (read per connection)."""

    form: bool = False
    """Form-mode elicitation: the client asks the question in its own dialog."""
    url: bool = False
    """URL-mode elicitation: the client opens a page the server names."""
    apps: bool = False
    """MCP Apps: the client draws a tool's HTML view in its conversation."""


@dataclass(frozen=True)
class TransportKind:
    """One place a question can be shown."""

    name: TransportName
    label: str
    """How a person reads it in the settings and in the summary of a fallback."""
    usable: Callable[[ClientFeatures], bool] = lambda _client: True
    """Whether this connection's client can take it (the server must also have set it up)."""
    unusable: str = ""
    """Why a client cannot take it, for the summary of a question asked elsewhere instead."""


TRANSPORT_KINDS: dict[TransportName, TransportKind] = {
    kind.name: kind
    for kind in (
        TransportKind("terminal", "The server's own terminal"),
        TransportKind("terminal_handoff", "A terminal the agent opens"),
        TransportKind("web", "The browser"),
        TransportKind(
            "elicitation",
            "The MCP client's own dialog",
            usable=lambda client: client.form,
            unusable="this MCP client has no dialog for questions (it declared no form elicitation)",
        ),
        TransportKind(
            "app",
            "The conversation, in the MCP client's app view",
            usable=lambda client: client.apps,
            unusable=(
                "this MCP client draws no MCP Apps (it declared no io.modelcontextprotocol/ui "
                "extension with text/html;profile=mcp-app)"
            ),
        ),
    )
}

WISHES: dict[PreferredTransport, tuple[TransportName, ...]] = {
    "auto": ("terminal", "app", "elicitation", "web"),
    "terminal": ("terminal", "terminal_handoff"),
    "web": ("web",),
    "elicitation": ("elicitation", "web"),
    "app": ("app", "elicitation", "web"),
}
"""Each wish, from the agent's request or the person's preference, as the kinds to try in order:
the first one the server has and the client can take is where the question goes."""

PREFERENCE_LABELS: dict[PreferredTransport, str] = {
    "auto": "Automatic: the server's terminal if it has one, else the conversation where the MCP "
    "client draws apps, else the MCP client's dialog if it has one, else the browser",
    "terminal": "Terminal",
    "web": "Browser",
    "elicitation": "The MCP client's own dialog, where it has one (else the browser)",
    "app": "In the conversation, where the MCP client draws apps (else as automatic)",
}
"""How the settings name each preference (the terminal's settings screen, the page's panel)."""

assert set(get_args(TransportName)) == set(TRANSPORT_KINDS)
assert set(get_args(PreferredTransport)) == set(WISHES) == set(PREFERENCE_LABELS)
assert set(get_args(RequestedTransport)) < set(WISHES)


def candidates(
    requested: RequestedTransport | None, preferred: PreferredTransport
) -> tuple[TransportName, ...]:
    """Where to try to ask, in order. The agent's explicit choice wins; else the person's
    preference; else the automatic order (the server's terminal, the client's dialog, the page).
    A preference for the client's dialog or its app view falls back as "auto" does where the
    client has none."""
    if requested is not None:
        return WISHES[requested]
    if preferred in ("elicitation", "app"):
        return (preferred, *(name for name in WISHES["auto"] if name != preferred))
    return WISHES[preferred]
