"""The transports added to the package's own: by `register_transport`, or by an installed
distribution under the entry-point group `provide_choice.transports` (`load_plugins`). Registering
one adds its kind to the contract's table (and, when it follows every question, its alert channel);
nothing here loads a transport of the package's own (`_kinds` describes those, `_registry` builds
them): a command that only reads the table, as the hand-off terminal does, stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, distributions

from provide_choice._contract._mirror_channels import add_mirror_channel
from provide_choice._contract._transport_table import TransportKind, add_kind
from provide_choice._notices import warn
from provide_choice._transports._base import TransportClass, TransportCommand

ENTRY_POINT_GROUP = "provide_choice.transports"
"""Where an installed distribution declares its transports: `name = "module:Class"`."""

_registered: list[TransportClass] = []


def register_transport(transport: TransportClass) -> Callable[[], None]:
    """Add a transport class: from now on its name is accepted and listed wherever transports are
    named, it joins the automatic order when its kind has an `auto_order`, and `build_transports`
    builds it. Returns the function that removes it again."""
    remove_kind = add_kind(transport.kind)
    remove_channel = _mirror_channel(transport)
    _registered.append(transport)

    def unregister() -> None:
        _registered.remove(transport)
        remove_channel()
        remove_kind()

    return unregister


def _mirror_channel(transport: TransportClass) -> Callable[[], None]:
    """A transport class that follows every question (it has `mirror`) is an alert channel too,
    named as it, worded by its `mirror_label` (else its label); returns what removes it."""
    if not callable(getattr(transport, "mirror", None)):
        return lambda: None
    label = getattr(transport, "mirror_label", None) or transport.kind.label
    return add_mirror_channel(transport.kind.name, str(label))


def load_plugins() -> list[str]:
    """Register every transport installed under the entry-point group `provide_choice.transports`
    (once per process: one already registered is left as it is). One that fails to import, is not
    a transport class or takes a name already taken is skipped: its line (naming it and why) is
    written on stderr and returned, and the others load as ever."""
    problems = []
    for entry in installed_entry_points():
        try:
            loaded = entry.load()
        except Exception as error:  # a plug-in's import may fail in any way
            problems.append(f"{entry.value} did not load ({type(error).__name__}: {error})")
            continue
        if loaded in _registered:
            continue
        problem = _not_a_transport(loaded)
        if problem is None:
            try:
                register_transport(loaded)
            except ValueError as error:
                problem = str(error)
        if problem is not None:
            problems.append(f"{entry.value} {problem}")
    for problem in problems:
        warn(f"transport plug-in {problem}; skipped")
    return problems


def installed_entry_points() -> list[EntryPoint]:
    """The entry points under `ENTRY_POINT_GROUP` of every distribution on the path, each once (a
    distribution found twice, as a checkout's egg-info beside its editable install, declares its
    entries twice). Only the distributions whose entry points name the group are parsed, where
    `importlib.metadata.entry_points` parses every one's: 5 ms against 17 in an environment of
    170, at every server's start."""
    found: list[EntryPoint] = []
    for distribution in distributions():
        text = distribution.read_text("entry_points.txt")
        if text and ENTRY_POINT_GROUP in text:
            entries = distribution.entry_points.select(group=ENTRY_POINT_GROUP)
            found += [entry for entry in entries if entry not in found]
    return found


def _not_a_transport(loaded: object) -> str | None:
    """Why an entry point's object is not a transport class, or None when it is one."""
    kind = getattr(loaded, "kind", None)
    if not isinstance(kind, TransportKind):
        return "is not a transport (its class needs a `kind`, a TransportKind)"
    if not callable(getattr(loaded, "build", None)):
        return "is not a transport (its class needs `build(setup)`)"
    return None


def transport_commands() -> dict[str, TransportCommand]:
    """The commands the registered transports add to `provide-choice`, by name (the transport's)."""
    return {
        transport.kind.name: command
        for transport in _registered
        if isinstance(command := getattr(transport, "command", None), TransportCommand)
    }


def added() -> tuple[TransportClass, ...]:
    """The transports registered so far, in the order they were."""
    return tuple(_registered)
