"""A new transport is one class and one `register_transport` call, as the documentation says: this module
adds one (it answers with the recommended options, the way a person reading a postcard might) and
asks a question through it end to end, with no other file touched."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from mcp import Client
from mcp_types import TextContent

from provide_choice import (
    Answered,
    InteractionSettings,
    PendingQuestion,
    ProvideChoiceResponse,
    create_server,
    register_transport,
    save_settings,
    tool_input_schema,
)
from provide_choice._contract._setting_labels import setting_choices
from provide_choice._contract._transport_table import TransportKind
from provide_choice._transports._base import Caller, TransportSetup

QUESTION: dict[str, object] = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL"},
        {"id": "lite", "label": "SQLite", "recommended": True},
    ],
}


class PostcardTransport:
    """Answers every question with its recommended options."""

    kind = TransportKind("postcard", "A postcard", preference="By postcard")
    cancelled_with_the_call = True
    bounded_wait = True

    @classmethod
    def build(cls, setup: TransportSetup) -> PostcardTransport:
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        request = question.interaction.request
        chosen = [option.id for option in request.options or () if option.recommended]
        question.finish(Answered(selected_ids=chosen))


@pytest.fixture
def postcard() -> Iterator[None]:
    unregister = register_transport(PostcardTransport)
    yield
    unregister()


async def ask(arguments: dict[str, object]) -> tuple[bool, str]:
    async with Client(create_server()) as client:
        result = await client.call_tool("provide_choice", arguments)
    (content,) = result.content
    assert isinstance(content, TextContent)
    return result.is_error, content.text


@pytest.mark.usefixtures("postcard")
async def test_a_registered_transport_is_asked_when_the_agent_names_it() -> None:
    failed, text = await ask(QUESTION | {"transport": "postcard"})
    assert not failed
    selection = json.loads(text)["selection"]
    assert selection["selected_ids"] == ["lite"]
    assert selection["transport"] == "postcard"
    assert selection["summary"] == "Selected: SQLite."


@pytest.mark.usefixtures("postcard")
async def test_a_registered_transport_is_a_preference_in_the_settings() -> None:
    _label, choices = setting_choices()["transport"]
    assert ("postcard", "By postcard") in choices
    save_settings(InteractionSettings(transport="postcard"))
    failed, text = await ask(QUESTION)
    assert not failed
    assert json.loads(text)["selection"]["transport"] == "postcard"


@pytest.mark.usefixtures("postcard")
async def test_a_registered_transport_is_listed_in_the_published_schemas() -> None:
    transport = tool_input_schema()["properties"]["transport"]
    assert transport == transport | {"type": "string"}
    assert "postcard" in transport["enum"]
    selection = ProvideChoiceResponse.model_json_schema()["$defs"]["Selection"]
    (shown, _nowhere) = selection["properties"]["transport"]["anyOf"]
    assert "postcard" in shown["enum"]
    async with Client(create_server()) as client:  # what the server publishes, stored or not
        (tool,) = [
            tool for tool in (await client.list_tools()).tools if tool.name == "provide_choice"
        ]
    assert "postcard" in tool.input_schema["properties"]["transport"]["enum"]
    assert tool.output_schema is not None
    selection = tool.output_schema["$defs"]["Selection"]
    assert "postcard" in selection["properties"]["transport"]["anyOf"][0]["enum"]


async def test_a_transport_is_refused_once_unregistered() -> None:
    unregister = register_transport(PostcardTransport)
    unregister()
    failed, text = await ask(QUESTION | {"transport": "postcard"})
    assert failed
    assert (
        "transport must be one of 'terminal', 'web', 'elicitation', 'app', 'slack' or 'telegram', got 'postcard'"
        in text
    )


def test_a_second_transport_of_the_same_name_is_refused() -> None:
    class AnotherWeb(PostcardTransport):
        kind = TransportKind("web", "Another browser")

    with pytest.raises(ValueError, match="a transport named 'web' is already registered"):
        register_transport(AnotherWeb)


class PigeonTransport(PostcardTransport):
    """A transport this server never has set up (no pigeons here)."""

    kind = TransportKind("pigeon", "A carrier pigeon", preference="By pigeon")

    @classmethod
    def build(cls, setup: TransportSetup) -> None:  # type: ignore[override]
        return None


async def test_regression_a_new_transport_ending_a_wish_list_is_a_clear_error_not_a_key_error() -> (
    None
):
    # The reason no transport could ask was looked up in a table of the built-in ones only.
    unregister = register_transport(PigeonTransport)
    try:
        failed, text = await ask(QUESTION | {"transport": "pigeon"})
    finally:
        unregister()
    assert failed
    assert text == (
        "provide_choice cannot ask the person here: a carrier pigeon is not set up on this server"
    )
