"""The transport seam: what a transport written outside this package needs, and nothing private.

A transport is a class with a `kind` (a `TransportKind`: its name, its label, where it stands in the
automatic order), a `build(setup)` class method and an `async show(question, caller)`; it reads
`question.interaction.request` (or `.batch`) and ends the question with `question.finish(...)`.
Register it with `register_transport(TheClass)`, or install it: a distribution that declares it
under the entry-point group `provide_choice.transports` (`name = "module:Class"`) is loaded by
`provide-choice serve`, `ask` and `inbox` at start. `RecommendedTransport` is a ready stand-in
for a person, for testing agents.

Each name loads on first use (PEP 562), as the package's own: a plug-in that names only what it
uses at import loads only that, so a command listing the plug-ins stays quick.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from provide_choice._contract._transport_table import ClientFeatures, TransportKind
    from provide_choice._question import (
        AgentClient,
        Interaction,
        LiveQuestion,
        PendingQuestion,
        TransportError,
    )
    from provide_choice._transports._base import (
        Caller,
        InputNeeded,
        Launch,
        Resumable,
        Transport,
        TransportSetup,
    )
    from provide_choice._transports._recommended import RecommendedTransport
    from provide_choice._transports._registry import (
        ENTRY_POINT_GROUP,
        load_plugins,
        register_transport,
    )

_MODULES = {
    "AgentClient": "provide_choice._question",
    "Caller": "provide_choice._transports._base",
    "ClientFeatures": "provide_choice._contract._transport_table",
    "ENTRY_POINT_GROUP": "provide_choice._transports._registry",
    "InputNeeded": "provide_choice._transports._base",
    "Interaction": "provide_choice._question",
    "Launch": "provide_choice._transports._base",
    "LiveQuestion": "provide_choice._question",
    "PendingQuestion": "provide_choice._question",
    "RecommendedTransport": "provide_choice._transports._recommended",
    "Resumable": "provide_choice._transports._base",
    "Transport": "provide_choice._transports._base",
    "TransportError": "provide_choice._question",
    "TransportKind": "provide_choice._contract._transport_table",
    "TransportSetup": "provide_choice._transports._base",
    "load_plugins": "provide_choice._transports._registry",
    "register_transport": "provide_choice._transports._registry",
}
"""Where each public name lives: loaded from there on first use (PEP 562)."""

__all__ = [
    "ENTRY_POINT_GROUP",
    "AgentClient",
    "Caller",
    "ClientFeatures",
    "InputNeeded",
    "Interaction",
    "Launch",
    "LiveQuestion",
    "PendingQuestion",
    "RecommendedTransport",
    "Resumable",
    "Transport",
    "TransportError",
    "TransportKind",
    "TransportSetup",
    "load_plugins",
    "register_transport",
]


def __getattr__(name: str) -> Any:
    """`name` from its module, imported now if it is not yet, and kept here for the next use."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
