"""The transports this server knows, and every rule that reads them.

Each transport class describes itself (`kind`: its name, labels, when it is usable, how the inbox
words it, its place in the automatic order; the package's own are in `_kinds`) and builds itself
from what the server set up (`build`). `BUILT_IN` lists the package's own; `_plug_ins` registers
those added to them (`register_transport`, `load_plugins`). The wishes and their order
(`candidates`) are derived from the contract's table of kinds, and the instances the server uses
(`build_transports`) from the classes, when they are read. A transport that follows every
question (`Mirrors`) is handed to the server's alerts when it is built.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from provide_choice._alerts import Mirrors
from provide_choice._contract._transport_table import (
    AUTO,
    ClientFeatures,
    auto_order,
    in_a_sentence,
    kind_of,
    kinds,
)
from provide_choice._transports._app._transport import AppTransport
from provide_choice._transports._base import Transport, TransportClass, TransportSetup
from provide_choice._transports._elicitation._transport import ElicitationTransport
from provide_choice._transports._plug_ins import added
from provide_choice._transports._terminal._transport import TerminalTransport
from provide_choice._transports._terminal_handoff._transport import TerminalHandoffTransport
from provide_choice._transports._web._transport import WebTransport

BUILT_IN: tuple[TransportClass, ...] = (
    TerminalTransport,
    TerminalHandoffTransport,
    WebTransport,
    ElicitationTransport,
    AppTransport,
)
"""The package's own transports, in the order their names are listed everywhere (their kinds are
registered by `_kinds`)."""


def wished(wish: str) -> tuple[str, ...]:
    """The transports to try, in order, for a wish: `auto`'s order, or the one named and then
    those that stand in for it (`fallback_for`), each followed by its own stand-ins (the app
    view, then the client's dialog, then the page)."""
    if wish == AUTO:
        return auto_order()
    order = [wish]
    for name in order:  # grows as it goes
        order += [
            kind.name for kind in kinds() if name in kind.fallback_for and kind.name not in order
        ]
    return tuple(order)


def candidates(requested: str | None, preferred: str) -> tuple[str, ...]:
    """Where to try to ask, in order. The agent's explicit choice wins; else the person's
    preference; else the automatic order. A preference for a transport that needs the client's
    support falls back as `auto` does where the client has none."""
    if requested is not None:
        return wished(requested)
    if preferred != AUTO and kind_of(preferred).needs is not None:
        return (preferred, *(name for name in auto_order() if name != preferred))
    return wished(preferred)


@dataclass(frozen=True)
class Choice:
    """Where a question goes, and the note its summary ends with when that is not where the agent
    asked for it."""

    transport: str
    note: str | None = None


def asks_here(transports: Mapping[str, Transport], named: Collection[str]) -> Callable[[str], bool]:
    """Whether the transport `name` may ask here: it is set up, and, where it asks only when
    named (`named_only`: the terminal of an instance sharing its questions), `named` names it
    (the request's wish, the person's setting)."""

    def asks(name: str) -> bool:
        transport = transports.get(name)
        if transport is None:
            return False
        return name in named or not getattr(transport, "named_only", False)

    return asks


def first_asking(transports: Mapping[str, Transport], preferred: str) -> str | None:
    """Where a question that names no transport is asked here, whatever the client: the first of
    the person's wishes (`preferred`, else the automatic order) that asks here without a client's
    support (a client that draws apps or dialogs may take it before the page, never before a
    terminal or a plug-in that comes first). None: nowhere."""
    asks = asks_here(transports, [preferred])
    return next(
        (
            name
            for name in candidates(None, preferred)
            if asks(name) and kind_of(name).needs is None
        ),
        None,
    )


def choose_transport(
    requested: str | None,
    preferred: str,
    has: Callable[[str], bool],
    client: ClientFeatures,
) -> Choice | None:
    """The first of the wished transports (`candidates`) that this server has and this client can
    take; None when there is none. An explicit wish that the client cannot take is noted."""
    tried = candidates(requested, preferred)
    for name in tried:
        if has(name) and kind_of(name).usable(client):
            first = kind_of(tried[0])
            note = None
            if requested is not None and name != first.name and not first.usable(client):
                where = in_a_sentence(kind_of(name).label)
                note = f"(Asked in {where}: {first.unusable}.)"
            return Choice(name, note)
    return None


def why_unavailable(requested: str | None, preferred: str) -> str:
    """Why no transport of this wish can ask here: said by the last one tried."""
    last = kind_of(candidates(requested, preferred)[-1])
    return last.missing or f"{in_a_sentence(last.label)} is not set up on this server"


def batch_refusal(name: str) -> str | None:
    """Why transport `name` cannot show a batch (saying which can), or None when it can."""
    kind = kind_of(name)
    if kind.batches:
        return None
    takers = [in_a_sentence(other.label) for other in kinds() if other.batches]
    where = (
        f"batches are shown by: {', '.join(takers)} (name one with transport)"
        if takers
        else "no surface of this server shows batches yet"
    )
    return (
        f"{in_a_sentence(kind.label)} cannot show several questions at once (questions); "
        f"{where}, or ask one question per call"
    )


def batch_stand_in(
    chosen: str, has: Callable[[str], bool], client: ClientFeatures
) -> Choice | None:
    """Where a batch goes when the surface chosen for it by the person's preference or the
    automatic order (`chosen`) cannot show batches: the first of the automatic order that can,
    with the note saying why; None when there is none."""
    taker = choose_transport(None, AUTO, lambda name: has(name) and kind_of(name).batches, client)
    if taker is None:
        return None
    where = in_a_sentence(kind_of(taker.transport).label)
    note = f"(Asked in {where}: {in_a_sentence(kind_of(chosen).label)} cannot show several questions at once.)"
    return Choice(taker.transport, note)


def build_transports(setup: TransportSetup) -> Mapping[str, Transport]:
    """The transports of a server set up as `setup` says, by name: the one place they are built.
    Each one that follows every question (`Mirrors`) is handed to the server's alerts."""
    built = {transport.kind.name: transport.build(setup) for transport in (*BUILT_IN, *added())}
    for name, transport in built.items():
        if isinstance(transport, Mirrors):
            setup.alerts.add_mirror(name, transport)
    return {name: transport for name, transport in built.items() if transport is not None}
