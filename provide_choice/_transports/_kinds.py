"""What a transport says about itself (`TransportKind`), and the names the contract gives them.

A question can be shown in several places: this server's own terminal, a terminal the agent opens
(the hand-off), a local web page, the MCP client's own dialog (elicitation). Each transport class
describes itself with a `TransportKind`, and `_registry` holds the classes. Every name the contract
uses (the request's `transport`, the person's preference in the settings, the response's
`selection.transport`) is one of the registered ones, checked when it is read and listed in the JSON
schemas as they are generated: the three types below read the registry then, they keep no list.

This module imports nothing of the package at import time: the request, the settings and the
response all use it, and the registry imports the transports, which import them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError, core_schema


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
    """One place a question can be shown, as every surface names it."""

    name: str
    """Its name in the response's `selection.transport` and the history."""
    label: str
    """How a person reads it in the summary of a fallback ("Asked in the browser")."""
    preference: str | None = None
    """How the settings name it as the person's preference, and so a name an agent may request;
    None when no one asks for it by name (the hand-off stands in for the terminal)."""
    fallback_for: tuple[str, ...] = ()
    """The other names whose wish leads here when those cannot be used: the hand-off when asked
    for a terminal, the page when asked for the client's dialog."""
    needs: Callable[[ClientFeatures], bool] | None = None
    """What the client of a connection must have declared for it; None: every client can take it.
    A preference for a kind that needs the client's support falls back as `auto` does."""
    unusable: str = ""
    """Why a client cannot take it, for the summary of a question asked elsewhere instead."""
    missing: str = ""
    """Why the server cannot ask, when this is the last transport of the wish and it is not set up."""
    inbox: str | None = None
    """How the inbox says where a question waits; None: at its own page, which the inbox links."""
    batches: bool = False
    """Whether it shows a batch (several questions in one call); one that does not refuses a
    batch as a whole, never showing half of it."""

    def usable(self, client: ClientFeatures) -> bool:
        """Whether this connection's client can take it (the server must also have set it up)."""
        return self.needs is None or self.needs(client)


class _Registered:
    """A `str` that must name one of the registry's current transports (`names` reads them), with
    those names as the JSON schema's `enum`: a transport registered later is valid at once."""

    def __init__(self, names: Callable[[], tuple[str, ...]]) -> None:
        self.names = names

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            self._check, serialization=core_schema.to_string_ser_schema()
        )

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return {"enum": list(self.names()), "type": "string"}

    def _check(self, value: object) -> str:
        names = self.names()
        if isinstance(value, str) and value in names:
            return value
        # Worded as pydantic words a Literal, so every surface reports it the same way.
        quoted = [repr(name) for name in names]
        expected = f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0]
        raise PydanticCustomError(
            "literal_error", "Input should be {expected}", {"expected": expected}
        )


def _registry() -> Any:
    from provide_choice._transports import _registry  # the registry imports the transports

    return _registry


TransportName = Annotated[str, _Registered(lambda: _registry().transport_names())]
"""Where a question was shown: any registered transport."""
RequestedTransport = Annotated[str, _Registered(lambda: _registry().wish_names())]
"""What an agent may ask for: `terminal` means a terminal, this server's or one the agent opens."""
PreferredTransport = Annotated[
    str, _Registered(lambda: (_registry().AUTO, *_registry().wish_names()))
]
"""What the person may prefer when the agent names no transport: `auto`, or what an agent may ask."""
