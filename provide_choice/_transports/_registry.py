"""The transports this server knows, in one list, and every rule that reads it.

Each transport class describes itself (`kind`: its name, labels, when it is usable, how the inbox
words it) and builds itself from what the server set up (`build`). `BUILT_IN` lists the package's
own, `register_transport` adds one, and everything else is derived from the list when it is read:
the names the request, the settings and the response accept (`_kinds`), the wishes and their order
(`candidates`), the settings' labels, the instances the server uses (`build_transports`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

from provide_choice._transports._app._transport import AppTransport
from provide_choice._transports._elicitation._transport import ElicitationTransport
from provide_choice._transports._handoff._transport import HandoffTransport
from provide_choice._transports._kinds import ClientFeatures, TransportKind
from provide_choice._transports._portal._transport import WebTransport
from provide_choice._transports._terminal._transport import TerminalTransport

if TYPE_CHECKING:
    from provide_choice._server._sessions import QuestionRegistry
    from provide_choice._transports._base import Transport
    from provide_choice._web._bridge import Bridge


@dataclass(frozen=True)
class TransportSetup:
    """What the server set up, for transports to build themselves from."""

    questions: QuestionRegistry
    bridge: Bridge | None = None
    """The local HTTP bridge for pages and hand-offs; None: the server has none."""
    terminal: TextIO | None = None
    """This process's own terminal, when questions may appear in it."""
    open_browser: bool = True
    """Whether a page opens in the browser by itself (else the person opens its address)."""


class TransportClass(Protocol):
    """A transport class as the registry takes it: its description and how to build one."""

    kind: TransportKind

    def build(self, setup: TransportSetup) -> Transport | None:
        """An instance for this server, or None when what it needs is not set up."""
        ...


BUILT_IN: tuple[TransportClass, ...] = (
    TerminalTransport,
    HandoffTransport,
    WebTransport,
    ElicitationTransport,
    AppTransport,
)
"""The package's own transports, in the order their names are listed everywhere."""

AUTO = "auto"
AUTO_ORDER: tuple[str, ...] = ("terminal", "app", "elicitation", "web")
"""Where a question goes when neither the agent nor the person names a transport: the first of
these the server has and the client can take."""
AUTO_LABEL = (
    "Automatic: the server's terminal if it has one, else the conversation where the MCP client "
    "draws apps, else the MCP client's dialog if it has one, else the browser"
)
"""How the settings name `auto`, saying `AUTO_ORDER` in words."""

_registered: list[TransportClass] = list(BUILT_IN)


def register_transport(transport: TransportClass) -> Callable[[], None]:
    """Add a transport class: from now on its name is accepted and listed wherever transports are
    named, and `build_transports` builds it. Returns the function that removes it again."""
    name = transport.kind.name
    if name == AUTO or name in transport_names():
        raise ValueError(f"a transport named {name!r} is already registered")
    _registered.append(transport)

    def unregister() -> None:
        _registered.remove(transport)

    return unregister


def kinds() -> tuple[TransportKind, ...]:
    """Every registered transport's description, built-in ones first."""
    return tuple(transport.kind for transport in _registered)


def kind_of(name: str) -> TransportKind:
    """The description of the registered transport `name` (a `KeyError` for any other)."""
    for kind in kinds():
        if kind.name == name:
            return kind
    raise KeyError(name)


def transport_names() -> tuple[str, ...]:
    """Every name a response's `selection.transport` may hold."""
    return tuple(kind.name for kind in kinds())


def wish_names() -> tuple[str, ...]:
    """The names an agent may request and the person may prefer (besides `auto`)."""
    return tuple(kind.name for kind in kinds() if kind.preference is not None)


def preference_labels() -> tuple[tuple[str, str], ...]:
    """Each preference the settings offer, with how they name it."""
    offered = ((kind.name, kind.preference) for kind in kinds() if kind.preference is not None)
    return ((AUTO, AUTO_LABEL), *offered)


def wished(wish: str) -> tuple[str, ...]:
    """The transports to try, in order, for a wish: `auto`'s order, or the one named and then
    those that stand in for it (`fallback_for`), each followed by its own stand-ins (the app
    view, then the client's dialog, then the page)."""
    if wish == AUTO:
        return AUTO_ORDER
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
        return (preferred, *(name for name in AUTO_ORDER if name != preferred))
    return wished(preferred)


@dataclass(frozen=True)
class Choice:
    """Where a question goes, and the note its summary ends with when that is not where the agent
    asked for it."""

    transport: str
    note: str | None = None


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
                where = kind_of(name).label.lower()
                note = f"(Asked in {where}: {first.unusable}.)"
            return Choice(name, note)
    return None


def why_unavailable(requested: str | None, preferred: str) -> str:
    """Why no transport of this wish can ask here: said by the last one tried."""
    last = kind_of(candidates(requested, preferred)[-1])
    return last.missing or f"{last.label.lower()} is not set up on this server"


def batch_refusal(name: str) -> str | None:
    """Why transport `name` cannot show a batch (saying which can), or None when it can."""
    kind = kind_of(name)
    if kind.batches:
        return None
    takers = [_in_a_sentence(other.label) for other in kinds() if other.batches]
    where = (
        f"batches are shown by: {', '.join(takers)} (name one with transport)"
        if takers
        else "no surface of this server shows batches yet"
    )
    return (
        f"{_in_a_sentence(kind.label)} cannot show several questions at once (questions); "
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
    where = _in_a_sentence(kind_of(taker.transport).label)
    note = f"(Asked in {where}: {_in_a_sentence(kind_of(chosen).label)} cannot show several questions at once.)"
    return Choice(taker.transport, note)


def _in_a_sentence(label: str) -> str:
    """A label inside a sentence: its first letter small, the rest as written ("MCP")."""
    return label[:1].lower() + label[1:]


def build_transports(setup: TransportSetup) -> Mapping[str, Transport]:
    """The transports of a server set up as `setup` says, by name: the one place they are built."""
    built = {transport.kind.name: transport.build(setup) for transport in _registered}
    return {name: transport for name, transport in built.items() if transport is not None}
