"""What an interrupt's `responseSchema` asks for, read as one of the few answers the chat can draw.

An agent describes the answer it needs with a JSON Schema. The chat does not draw JSON Schema in
general: it recognises the shapes agents send, and draws each its own way (NiceGUI's, in
`chat_ui._nicegui._interrupt_group`):

- `Approval`: an object with a boolean `approved` (pydantic-ai's shape, and AG-UI's recommended
  one): Approve and Deny, and a Reason the person may give.
- `OneValue`: a string enum, or an object with one string-enum property: one button per value,
  labelled by its `title` where the schema gives one (`oneOf`/`anyOf` of `{"const", "title"}`).
- `Form`: an object whose properties are all flat strings, numbers, integers, booleans or string
  enums: a small form, its required fields marked and checked before it is sent.
- `Undrawable`: anything else (nested objects, arrays, no schema at all): the chat says it cannot
  draw the answer, and offers to cancel the interrupt.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

FieldKind = Literal["string", "number", "integer", "boolean", "enum"]


@dataclass(frozen=True)
class Approval:
    """Approve or deny; `reason`: whether the schema lets the person say why."""

    reason: bool


@dataclass(frozen=True)
class Option:
    """One value the answer may be, and its label."""

    value: str
    label: str


@dataclass(frozen=True)
class OneValue:
    """One of `options`: the bare value, or `{property: value}` when `property` is set."""

    options: list[Option]
    property: str | None = None

    def payload(self, value: str) -> Any:
        return value if self.property is None else {self.property: value}


@dataclass(frozen=True)
class Field:
    """One field of a form: the property's `name`, its label, its kind, whether it is required,
    its values (for an enum) and what it starts with."""

    name: str
    title: str
    kind: FieldKind
    required: bool = False
    options: tuple[Option, ...] = ()
    default: Any = None


@dataclass(frozen=True)
class Form:
    """A flat object, one field per property, in the schema's order."""

    fields: list[Field]

    def payload(self, values: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The answer from the fields' `values` (as the inputs hold them), and the problems that
        keep it from being sent (a required field left empty, a number that is not one)."""
        payload: dict[str, Any] = {}
        problems: list[str] = []
        for field in self.fields:
            value = values.get(field.name)
            if field.kind == "boolean":
                payload[field.name] = bool(value)
                continue
            if value is None or (isinstance(value, str) and not value.strip()):
                if field.required:
                    problems.append(f"{field.title} is required")
                continue
            if field.kind in ("number", "integer"):
                number = float(value)
                if not math.isfinite(number):
                    problems.append(f"{field.title} must be a number")
                elif field.kind == "integer" and not number.is_integer():
                    problems.append(f"{field.title} must be a whole number, got {value}")
                else:
                    payload[field.name] = int(number) if field.kind == "integer" else number
                continue
            payload[field.name] = value
        return payload, problems


@dataclass(frozen=True)
class Undrawable:
    """An answer the chat cannot draw: it can only be cancelled."""


AnswerSchema = Approval | OneValue | Form | Undrawable


def read_schema(schema: Mapping[str, Any] | None) -> AnswerSchema:
    """The answer `schema` asks for, as the chat draws it."""
    if not isinstance(schema, Mapping):
        return Undrawable()
    options = _options(schema)
    if options is not None:
        return OneValue(options)
    properties = schema.get("properties")
    if schema.get("type", "object") != "object" or not isinstance(properties, Mapping):
        return Undrawable()
    approved = properties.get("approved")
    if isinstance(approved, Mapping) and approved.get("type") == "boolean":
        offers_reason = "reason" in properties or schema.get("additionalProperties") is not False
        return Approval(reason=offers_reason)
    if len(properties) == 1:
        ((name, only),) = properties.items()
        only_options = _options(only) if isinstance(only, Mapping) else None
        if only_options is not None:
            return OneValue(only_options, name)
    required = schema.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    fields = [_field(name, spec, name in required_names) for name, spec in properties.items()]
    if not fields or any(field is None for field in fields):
        return Undrawable()
    return Form([field for field in fields if field is not None])


def _field(name: str, spec: Any, required: bool) -> Field | None:
    """The field for a flat property; None for one the chat cannot draw."""
    if not isinstance(spec, Mapping):
        return None
    title = spec["title"] if isinstance(spec.get("title"), str) else name
    options = _options(spec)
    if options is not None:
        return Field(name, title, "enum", required, tuple(options), spec.get("default"))
    kind = spec.get("type")
    if kind not in ("string", "number", "integer", "boolean"):
        return None
    return Field(name, title, kind, required, default=spec.get("default"))


def _options(spec: Mapping[str, Any]) -> list[Option] | None:
    """The values of a string enum (`enum`, or `oneOf`/`anyOf` of `const`s with titles); None for
    a schema that is no string enum."""
    if spec.get("type", "string") != "string":
        return None
    enum = spec.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(value, str) for value in enum):
        return [Option(value, value) for value in enum]
    for key in ("oneOf", "anyOf"):
        choices = spec.get(key)
        if isinstance(choices, list) and choices and all(_is_const(c) for c in choices):
            return [Option(c["const"], c.get("title") or c["const"]) for c in choices]
    return None


def _is_const(choice: Any) -> bool:
    return (
        isinstance(choice, Mapping)
        and isinstance(choice.get("const"), str)
        and isinstance(choice.get("title", ""), str)
    )
