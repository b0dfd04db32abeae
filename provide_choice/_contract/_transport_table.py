"""The transports as the contract knows them: one table of every place a question can be shown.

A question can be shown in several places: this server's own terminal, a terminal the agent opens
(the hand-off), a web page, the MCP client's own dialog (elicitation), the client's app view. Each
transport class describes itself with a `TransportKind`, and registering the class
(`provide_choice.transports.register_transport`) adds its kind to this table. Every name the
contract uses (the request's `transport`, the person's preference in the settings, the response's
`selection.transport`) is one of the table's, checked when it is read and listed in the JSON
schemas as they are generated: the three name types below read the table then, they keep no list.
The automatic order and the settings' words for it are read from the table too.

The built-in transports register when their registry is imported, and nothing here imports it (the
contract imports nothing above it): the package names it once (`built_ins_in`) and the table imports
it when it is first read, so every name is known wherever one is read first (a command, the
hand-off's terminal, a library's first `parse_request`) while `import provide_choice` loads none of
the transports. Pydantic is loaded only when a name type is first validated or published.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from present_choices._locale_format import format_list
from present_choices._translation import ENGLISH, Translation

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
    from pydantic_core import core_schema

AUTO = "auto"
"""The preference for no transport in particular: the first of the automatic order that can ask."""


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
    """How a person reads it in the summary of a fallback ("Asked in the browser"), the history
    and the inbox. Recorded with each question, so the history names it even once it is gone."""
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
    answer_where: str | None = None
    """Where a push alert says to answer ("in the terminal"); None: at the question's address,
    or in its label where it has none."""
    batches: bool = False
    """Whether it shows a batch (several questions in one call); one that does not refuses a
    batch as a whole, never showing half of it."""
    auto_order: int | None = None
    """Its place in the automatic order, lowest first (the built-ins stand at terminal 10, app 20,
    elicitation 30, web 40); None: it is used only when named."""

    def usable(self, client: ClientFeatures) -> bool:
        """Whether this connection's client can take it (the server must also have set it up)."""
        return self.needs is None or self.needs(client)


_table: list[TransportKind] = []
_built_ins: str | None = None
"""The module whose import registers the built-in transports (`provide_choice` names it)."""


def built_ins_in(module: str) -> None:
    """Name the module whose import registers the built-in transports (`provide_choice` does, as
    it is imported): the table imports it when it is first read, so the built-ins come first."""
    global _built_ins
    _built_ins = module


def _whole() -> list[TransportKind]:
    """The table, with the built-in transports in it. Importing their module costs nothing once
    it is imported; while it is being imported (it registers them one by one, each reading the
    table) the import returns it as it stands, and another thread reading the table meanwhile
    waits for the import to end."""
    if _built_ins is not None:
        importlib.import_module(_built_ins)
    return _table


def add_kind(kind: TransportKind) -> Callable[[], None]:
    """Add a kind to the table (registering its transport does); returns what removes it."""
    if kind.name == AUTO or kind.name in transport_names():
        raise ValueError(f"a transport named {kind.name!r} is already registered")
    _table.append(kind)

    def remove() -> None:
        _table.remove(kind)

    return remove


def kinds() -> tuple[TransportKind, ...]:
    """Every registered transport's description, in the order they were registered."""
    return tuple(_whole())


def kind_of(name: str) -> TransportKind:
    """The description of the registered transport `name` (a `KeyError` for any other)."""
    for kind in _whole():
        if kind.name == name:
            return kind
    raise KeyError(name)


def transport_names() -> tuple[str, ...]:
    """Every name a response's `selection.transport` may hold."""
    return tuple(kind.name for kind in _whole())


def wish_names() -> tuple[str, ...]:
    """The names an agent may request and the person may prefer (besides `auto`)."""
    return tuple(kind.name for kind in _whole() if kind.preference is not None)


def auto_order() -> tuple[str, ...]:
    """Where a question goes when neither the agent nor the person names a transport: the first
    of these the server has and the client can take."""
    ordered = sorted(
        (kind for kind in _whole() if kind.auto_order is not None),
        key=lambda kind: kind.auto_order or 0,
    )
    return tuple(kind.name for kind in ordered)


def auto_label(translation: Translation = ENGLISH) -> str:
    """How the settings name `auto`, saying the automatic order in words."""
    labels = [in_a_sentence(translation.gettext(kind_of(name).label)) for name in auto_order()]
    return translation.gettext(
        "Automatic: {order} (the first this server and the client can use)",
        order=format_list(labels, translation, style="or"),
    )


def preference_labels(translation: Translation = ENGLISH) -> tuple[tuple[str, str], ...]:
    """Each preference the settings offer, with how they name it (in `translation`: a plug-in's
    words stay as it wrote them, having no catalog)."""
    offered = (
        (kind.name, translation.gettext(kind.preference))
        for kind in _whole()
        if kind.preference is not None
    )
    return ((AUTO, auto_label(translation)), *offered)


def answered_where(name: str, *, at_an_address: bool = False) -> str:
    """Where the person answered on transport `name`, as a sentence says it after "Answered"
    ("in the terminal", "in the conversation", "in Telegram"): its kind's `answer_where`; "on the
    page" for one without, where the question was shown `at_an_address`; else in its label."""
    try:
        kind = kind_of(name)
    except KeyError:  # a transport of another instance, not installed here
        return f"in {name}"
    if kind.answer_where is not None:
        return kind.answer_where
    return "on the page" if at_an_address else f"in {in_a_sentence(kind.label)}"


def in_a_sentence(label: str) -> str:
    """A label inside a sentence: its first letter small ("the browser"), unless its first word
    is an abbreviation written in capitals ("MCP client's dialog", "MCP 客户端": "mCP" is no
    word in any language); the rest as written."""
    if label[1:2].isupper():
        return label
    return label[:1].lower() + label[1:]


class _Registered:
    """A `str` that must name one of the table's current transports (`names` reads them), with
    those names as the JSON schema's `enum`: a transport registered later is valid at once."""

    def __init__(self, names: Callable[[], tuple[str, ...]]) -> None:
        self.names = names

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        from pydantic_core import core_schema

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
        from pydantic_core import PydanticCustomError

        # Worded as pydantic words a Literal, so every surface reports it the same way.
        quoted = [repr(name) for name in names]
        expected = f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0]
        raise PydanticCustomError(
            "literal_error", "Input should be {expected}", {"expected": expected}
        )


TransportName = Annotated[str, _Registered(transport_names)]
"""Where a question was shown: any registered transport."""
RequestedTransport = Annotated[str, _Registered(wish_names)]
"""What an agent may ask for: `terminal` means a terminal, this server's or one the agent opens."""
PreferredTransport = Annotated[str, _Registered(lambda: (AUTO, *wish_names()))]
"""What the person may prefer when the agent names no transport: `auto`, or what an agent may ask."""
