"""The answers the chat draws for an interrupt's `responseSchema`, and a form's checks (issue 32)."""

from __future__ import annotations

from typing import Any

import pytest

from chat_ui._model._answer_schema import (
    Approval,
    Field,
    Form,
    OneValue,
    Option,
    Undrawable,
    read_schema,
)
from chat_ui._model._interrupts import APPROVAL_SCHEMA

PYDANTIC_AI_APPROVAL = {  # as pydantic-ai's AG-UI adapter advertises it
    "type": "object",
    "properties": {
        "approved": {"type": "boolean"},
        "editedArgs": {"type": "object"},
        "reason": {"type": "string"},
    },
    "required": ["approved"],
}


@pytest.mark.parametrize(
    ("schema", "drawn"),
    [
        (PYDANTIC_AI_APPROVAL, Approval(reason=True)),
        (APPROVAL_SCHEMA, Approval(reason=True)),
        (
            {
                "type": "object",
                "properties": {"approved": {"type": "boolean"}},
                "additionalProperties": False,
            },
            Approval(reason=False),
        ),
        (
            {"type": "string", "enum": ["staging", "production"]},
            OneValue([Option("staging", "staging"), Option("production", "production")]),
        ),
        (
            {"type": "string", "oneOf": [{"const": "s", "title": "Staging"}, {"const": "p"}]},
            OneValue([Option("s", "Staging"), Option("p", "p")]),
        ),
        (
            {"type": "object", "properties": {"env": {"anyOf": [{"const": "s", "title": "S"}]}}},
            OneValue([Option("s", "S")], "env"),
        ),
        (
            {
                "type": "object",
                "properties": {
                    "title": {"type": "string", "title": "Title"},
                    "size": {"type": "integer", "default": 2},
                    "page": {"type": "boolean"},
                    "env": {"type": "string", "enum": ["a", "b"]},
                },
                "required": ["title"],
            },
            Form(
                [
                    Field("title", "Title", "string", required=True),
                    Field("size", "size", "integer", default=2),
                    Field("page", "page", "boolean"),
                    Field("env", "env", "enum", options=(Option("a", "a"), Option("b", "b"))),
                ]
            ),
        ),
        ({"type": "object", "properties": {"files": {"type": "array"}}}, Undrawable()),
        ({"type": "object", "properties": {"to": {"type": "object"}}}, Undrawable()),
        ({"type": "object", "properties": {}}, Undrawable()),
        ({"type": "integer"}, Undrawable()),
        (None, Undrawable()),
    ],
    ids=[
        "pydantic-ai approval",
        "in-process approval",
        "approval without a reason",
        "string enum",
        "titled consts",
        "one enum property",
        "flat form",
        "array",
        "nested object",
        "no property",
        "bare integer",
        "no schema",
    ],
)
def test_each_schema_is_drawn_as_the_answer_it_asks_for(
    schema: dict[str, Any] | None, drawn: object
) -> None:
    assert read_schema(schema) == drawn


def test_a_form_sends_typed_values_and_says_what_keeps_it_from_being_sent() -> None:
    form = Form(
        [
            Field("title", "Title", "string", required=True),
            Field("size", "Size", "integer", required=True),
            Field("ratio", "Ratio", "number"),
            Field("page", "Page", "boolean"),
        ]
    )
    assert form.payload({"title": " ", "size": 2.5, "ratio": None, "page": None}) == (
        {"page": False},
        ["Title is required", "Size must be a whole number, got 2.5"],
    )
    assert form.payload({"title": "Down", "size": 3.0, "ratio": 0.5, "page": True}) == (
        {"title": "Down", "size": 3, "ratio": 0.5, "page": True},
        [],
    )
