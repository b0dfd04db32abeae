"""The question in the MCP client's own dialog (elicitation), through the SDK's own client with an
`elicitation_callback`, on the 2025-11-25 revision ("legacy": `elicitation/create` during the call)
and on 2026-07-28 (`input_required` results and a retried call). A batch is one form, one field per
question named by its id (a hybrid question adds `<id>.own_answer`)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.session import ClientRequestContext
from waiting import until

from provide_choice import InteractionSettings, create_server, save_settings
from provide_choice._bridge._bridge import Bridge
from provide_choice._question import QuestionRegistry
from provide_choice._server._caller import client_features
from provide_choice._transports._web import WebTransport
from provide_choice.transports import TransportSetup

MODES = ["legacy", "2026-07-28"]
OPTIONS = [
    {"id": "red", "label": "Red", "description": "warm", "recommended": True},
    {"id": "blue", "label": "Blue"},
    {"id": "green", "label": "Green"},
]
SINGLE = {
    "title": "Colour",
    "prompt": "Which colour should the **banner** be?",
    "selection_mode": "single",
    "options": OPTIONS,
}

Answer = Callable[[types.ElicitRequestParams], Awaitable[types.ElicitResult]]


class Dialog:
    """The client's dialog: answers each form with the next of `answers`, and remembers the forms."""

    def __init__(self, *answers: types.ElicitResult, delay: float = 0.0) -> None:
        self.answers = list(answers)
        self.delay = delay
        self.shown: list[types.ElicitRequestParams] = []
        self.cancelled = False

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        self.shown.append(params)
        try:
            await anyio.sleep(self.delay)
        except anyio.get_cancelled_exc_class():
            self.cancelled = True
            raise
        return self.answers.pop(0)


def accept(**content: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=content)


@asynccontextmanager
async def client_of(mode: str, dialog: Dialog | None, **options: Any) -> AsyncIterator[Client]:
    server = create_server(heartbeat_seconds=0.05, **options)
    async with Client(server, mode=mode, elicitation_callback=dialog) as client:  # type: ignore[arg-type]
        yield client


async def ask(mode: str, dialog: Dialog, request: dict[str, Any]) -> dict[str, Any]:
    async with client_of(mode, dialog) as client:
        result = await client.call_tool("provide_choice", request)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def form_of(params: types.ElicitRequestParams) -> dict[str, Any]:
    assert isinstance(params, types.ElicitRequestFormParams)
    schema: dict[str, Any] = params.requested_schema
    return schema


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("request_changes", "content", "status", "selection"),
    [
        ({}, {"choice": "blue"}, "selected", {"selected_ids": ["blue"]}),
        (
            {"selection_mode": "multi", "max_selections": 2},
            {"choices": ["green", "red"], "note": "for the dark theme"},
            "selected",
            {"selected_ids": ["red", "green"], "global_annotation": "for the dark theme"},
        ),
        (
            {"selection_mode": "text_input", "options": None, "placeholder": "Teal"},
            {"answer": "Teal"},
            "custom_input",
            {"custom_input": "Teal", "placeholder_used": True},
        ),
        (
            {"selection_mode": "hybrid", "max_selections": 2},
            {"own_answer": "Purple"},
            "custom_input",
            {"custom_input": "Purple", "selected_ids": []},
        ),
        (
            {"selection_mode": "hybrid"},
            {"choice": "red", "own_answer": ""},
            "selected",
            {"selected_ids": ["red"], "custom_input": None},
        ),
    ],
)
async def test_every_mode_is_answered_in_the_clients_dialog(
    mode: str,
    request_changes: dict[str, Any],
    content: dict[str, Any],
    status: str,
    selection: dict[str, Any],
) -> None:
    request = {key: value for key, value in (SINGLE | request_changes).items() if value is not None}
    dialog = Dialog(accept(**content))
    response = await ask(mode, dialog, request)
    assert response["action_status"] == status
    assert response["selection"]["transport"] == "elicitation"
    assert response["selection"] | selection == response["selection"]
    (shown,) = dialog.shown
    assert shown.message == "Colour\n\nWhich colour should the **banner** be?"


async def test_the_form_has_the_spec_shapes_titles_and_defaults() -> None:
    dialog = Dialog(accept(choices=["red"]))
    request = SINGLE | {
        "selection_mode": "multi",
        "min_selections": 1,
        "max_selections": 2,
        "default_selection_ids": ["red"],
    }
    await ask("legacy", dialog, request)
    assert form_of(dialog.shown[0]) == {
        "type": "object",
        "properties": {
            "choices": {
                "type": "array",
                "title": "Choose 1 to 2 options",
                "items": {
                    "anyOf": [
                        {"const": "red", "title": "Red (recommended): warm"},
                        {"const": "blue", "title": "Blue"},
                        {"const": "green", "title": "Green"},
                    ]
                },
                "minItems": 1,
                "maxItems": 2,
                "default": ["red"],
            },
            "note": {"type": "string", "title": "A note for the agent (optional)"},
        },
        "required": ["choices"],
    }


async def test_a_single_choice_is_one_required_string_with_oneof_arms() -> None:
    dialog = Dialog(accept(choice="red"))
    await ask("legacy", dialog, SINGLE | {"default_selection_ids": ["blue"]})
    properties = form_of(dialog.shown[0])["properties"]
    assert properties["choice"]["oneOf"][1] == {"const": "blue", "title": "Blue"}
    assert properties["choice"]["default"] == "blue"
    assert form_of(dialog.shown[0])["required"] == ["choice"]


async def test_notes_switched_off_by_the_person_leave_no_note_field(home: Path) -> None:
    save_settings(InteractionSettings(annotations=False))
    dialog = Dialog(accept(choice="red", note="ignored"))
    response = await ask("legacy", dialog, SINGLE)
    assert "note" not in form_of(dialog.shown[0])["properties"]
    assert response["selection"]["global_annotation"] is None


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("action", "summary"),
    [
        ("decline", "The person declined to answer in the MCP client's dialog; nothing selected."),
        (
            "cancel",
            "The person dismissed the MCP client's dialog without answering; nothing selected.",
        ),
    ],
)
async def test_declined_or_dismissed_is_cancelled_and_says_so(
    mode: str, action: Any, summary: str
) -> None:
    response = await ask(mode, Dialog(types.ElicitResult(action=action)), SINGLE)
    assert response["action_status"] == "cancelled"
    assert response["selection"]["summary"] == summary


@pytest.mark.parametrize("mode", MODES)
async def test_an_answer_that_does_not_fit_is_asked_again_once_stating_the_problem(
    mode: str,
) -> None:
    dialog = Dialog(accept(choice="purple"), accept(choice="green"))
    response = await ask(mode, dialog, SINGLE)
    assert response["selection"]["selected_ids"] == ["green"]
    first, second = dialog.shown
    assert second.message.startswith(
        "Your answer did not fit: 'purple' is not one of the options. Please answer again."
    )
    assert form_of(first) == form_of(second)


@pytest.mark.parametrize("mode", MODES)
async def test_a_second_misfit_is_never_passed_on_and_cancels_naming_the_problem(
    mode: str,
) -> None:
    request = SINGLE | {"selection_mode": "multi", "max_selections": 2}
    dialog = Dialog(accept(choices=["red", "blue", "green"]), accept(choices=["red", "nope"]))
    response = await ask(mode, dialog, request)
    assert response["action_status"] == "cancelled"
    assert response["selection"]["selected_ids"] == []
    assert response["selection"]["summary"] == (
        "The answer from the MCP client's dialog did not fit the question twice ('nope' is not "
        "one of the options); nothing selected."
    )
    assert "choose 1 to 2 options (3 chosen)" in dialog.shown[1].message


@pytest.mark.parametrize("mode", MODES)
async def test_a_slow_client_past_the_deadline_gets_the_timeout(mode: str, home: Path) -> None:
    save_settings(InteractionSettings(timeout_action="return_nothing"))
    dialog = Dialog(accept(choice="blue"), delay=2.5)
    started = time.monotonic()
    response = await ask(mode, dialog, SINGLE | {"timeout_seconds": 1})
    assert response["action_status"] == "timeout"
    assert response["selection"]["selected_ids"] == []
    assert response["selection"]["summary"] == "No answer before the deadline; nothing selected."
    if mode == "legacy":  # the request still open was cancelled, not left to run on
        assert dialog.cancelled
        assert time.monotonic() - started < 2.4


async def test_max_wait_does_not_cut_a_dialog_the_client_is_showing() -> None:
    dialog = Dialog(accept(choice="blue"), delay=1.0)
    async with client_of("legacy", dialog, max_wait_seconds=0.3) as client:
        result = await client.call_tool("provide_choice", SINGLE)
    assert result.structured_content is not None
    assert result.structured_content["action_status"] == "selected"


async def test_a_client_without_elicitation_gets_the_page_and_an_explicit_wish_is_noted() -> None:
    bridge, questions = Bridge(linger_seconds=0.5), QuestionRegistry()
    web = WebTransport(bridge, questions, open_browser=False)
    server = create_server({"web": web}, setup=TransportSetup(questions))
    results: list[types.CallToolResult] = []
    try:
        async with Client(server) as client, anyio.create_task_group() as group:

            async def call() -> None:
                request = SINGLE | {"transport": "elicitation"}
                results.append(await client.call_tool("provide_choice", request))

            group.start_soon(call)

            def shown() -> list[str]:
                return [q.url for q in questions._questions.values() if q.url]

            await until(lambda: bool(shown()), "the question is shown on a page")
            async with httpx.AsyncClient() as http:
                answer = {"kind": "answered", "selected_ids": ["green"]}
                assert (await http.post(shown()[0] + "/answer", json=answer)).is_success
    finally:
        await bridge.aclose()
    response = results[0].structured_content
    assert response is not None
    assert response["selection"]["transport"] == "web"
    assert response["selection"]["summary"] == (
        "Selected: Green. (Asked in the browser: this MCP client has no dialog for questions "
        "(it declared no form elicitation).)"
    )


@pytest.mark.parametrize("preference", ["web", "terminal"])
async def test_the_persons_preference_for_a_page_or_a_terminal_wins_over_the_dialog(
    home: Path, preference: Any
) -> None:
    save_settings(InteractionSettings(transport=preference))
    dialog = Dialog(accept(choice="blue"))
    async with client_of("legacy", dialog) as client:
        result = await client.call_tool("provide_choice", SINGLE)
    assert result.is_error  # this server has neither: it says so instead of using the dialog
    assert dialog.shown == []


async def test_the_persons_preference_for_the_dialog_is_used(home: Path) -> None:
    save_settings(InteractionSettings(transport="elicitation"))
    response = await ask("legacy", Dialog(accept(choice="red")), SINGLE)
    assert response["selection"]["transport"] == "elicitation"


@pytest.mark.parametrize("mode", MODES)
async def test_with_url_mode_the_client_opens_the_page_and_hears_when_it_ended(mode: str) -> None:
    """The server asks the client to open the page instead of starting a browser itself."""
    bridge, questions = Bridge(linger_seconds=0.5), QuestionRegistry()
    web = WebTransport(bridge, questions, open_browser=True)  # the client opens it instead
    opened: list[types.ElicitRequestURLParams] = []
    completed: list[str] = []

    async def dialog(
        context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        assert isinstance(params, types.ElicitRequestURLParams)
        opened.append(params)
        return types.ElicitResult(action="accept")

    async def notifications(message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            completed.append(message.params.elicitation_id)

    server = create_server({"web": web}, setup=TransportSetup(questions), heartbeat_seconds=0.05)
    try:
        async with Client(
            server, mode=mode, elicitation_callback=dialog, message_handler=notifications
        ) as client:
            results: list[types.CallToolResult] = []
            async with anyio.create_task_group() as group:

                async def call() -> None:
                    request = SINGLE | {"transport": "web"}
                    results.append(await client.call_tool("provide_choice", request))

                group.start_soon(call)
                await until(lambda: bool(opened), "the client is asked to open the page")
                async with httpx.AsyncClient() as http:
                    answer = {"kind": "answered", "selected_ids": ["blue"]}
                    assert (await http.post(opened[0].url + "/answer", json=answer)).is_success
            if mode == "legacy":  # 2026-07-28 has no such notification: the result says it
                await until(lambda: bool(completed), "the client hears the question ended")
    finally:
        await bridge.aclose()
    response = results[0].structured_content
    assert response is not None
    assert response["selection"]["selected_ids"] == ["blue"]
    assert response["selection"]["url"] == opened[0].url
    if mode == "legacy":  # 2026-07-28 dropped the elicitation id with the notification
        assert opened[0].url.endswith(f"/choice/{opened[0].elicitation_id}")
        assert completed == [opened[0].elicitation_id]
    else:
        assert completed == []


@pytest.mark.parametrize(
    ("declared", "form", "url"),
    [
        (None, False, False),
        (types.ElicitationCapability(), True, False),  # a bare {} means form only
        (types.ElicitationCapability(form=types.FormElicitationCapability()), True, False),
        (types.ElicitationCapability(url=types.UrlElicitationCapability()), False, True),
        (
            types.ElicitationCapability(
                form=types.FormElicitationCapability(), url=types.UrlElicitationCapability()
            ),
            True,
            True,
        ),
    ],
)
def test_what_a_client_can_show_is_read_from_its_declared_capability(
    declared: types.ElicitationCapability | None, form: bool, url: bool
) -> None:
    features = client_features(types.ClientCapabilities(elicitation=declared))
    assert (features.form, features.url) == (form, url)


# A batch ------------------------------------------------------------------------------------------

BATCH_QUESTIONS: list[dict[str, Any]] = [
    {
        "id": "db",
        "header": "Database",
        "prompt": "Which database should I set up?",
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True, "preview": "```sql\n```"},
            {"id": "lite", "label": "SQLite"},
        ],
    },
    {
        "id": "features",
        "header": "Features",
        "prompt": "Which features go in the first release?",
        "selection_mode": "multi",
        "options": [
            {"id": "auth", "label": "Login", "recommended": True},
            {"id": "search", "label": "Search"},
        ],
    },
    {
        "id": "name",
        "prompt": "What should the service be called?",
        "selection_mode": "text_input",
        "placeholder": "orders",
    },
    {
        "id": "region",
        "header": "Region",
        "prompt": "Which region, or another?",
        "selection_mode": "hybrid",
        "options": [{"id": "eu", "label": "Europe", "recommended": True}],
    },
]
DIALOG_BATCH = {"title": "Project set-up", "questions": BATCH_QUESTIONS, "transport": "elicitation"}


@pytest.mark.parametrize("mode", MODES)
async def test_a_batch_is_one_form_with_a_field_per_question_named_by_its_id(mode: str) -> None:
    dialog = Dialog(
        accept(
            db="lite",
            features=["search", "auth"],
            name="orders",
            **{"region.own_answer": "Asia", "batch.note": "thanks"},
        )
    )
    response = await ask(mode, dialog, DIALOG_BATCH)
    (params,) = dialog.shown
    assert isinstance(params, types.ElicitRequestFormParams)
    assert params.message == "Project set-up\n\n4 questions: answer each below."
    schema = form_of(params)
    assert list(schema["properties"]) == [
        "db",
        "features",
        "name",
        "region",
        "region.own_answer",
        "batch.note",
    ]
    assert schema["required"] == ["db", "features", "name"]
    database = schema["properties"]["db"]
    assert database["title"] == "Database"
    assert database["description"] == "Choose one. Which database should I set up?"
    assert database["oneOf"][0] == {"const": "pg", "title": "PostgreSQL (recommended)"}
    assert schema["properties"]["name"]["title"] == "name"
    assert schema["properties"]["name"]["default"] == "orders"
    assert schema["properties"]["region.own_answer"]["title"] == "Region: or your own answer"
    assert "preview" not in str(schema)
    assert response["action_status"] == "selected"
    assert response["selection"]["transport"] == "elicitation"
    assert response["selection"]["global_annotation"] == "thanks"
    assert [answer["selected_ids"] for answer in response["answers"]] == [
        ["lite"],
        ["auth", "search"],
        [],
        [],
    ]
    assert response["answers"][2]["placeholder_used"] is True
    assert response["answers"][3]["custom_input"] == "Asia"


SIX_QUESTIONS = [
    BATCH_QUESTIONS[1],
    BATCH_QUESTIONS[0],
    BATCH_QUESTIONS[3],
    BATCH_QUESTIONS[2],
    BATCH_QUESTIONS[1] | {"id": "extras", "header": "Extras"},
    BATCH_QUESTIONS[0] | {"id": "cache", "header": "Cache"},
]
"""Six questions mixing the modes; the first 1 and 3 of them are the smaller batches."""
FORM_ANSWERS: dict[str, Any] = {
    "features": ["search"],
    "db": "pg",
    "region.own_answer": "Asia",
    "name": "billing",
    "extras": ["auth", "search"],
    "cache": "lite",
}
EXPECTED_ANSWERS = {
    "features": (["search"], None),
    "db": (["pg"], None),
    "region": ([], "Asia"),
    "name": ([], "billing"),
    "extras": (["auth", "search"], None),
    "cache": (["lite"], None),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("count", [1, 3, 6])
async def test_batches_of_one_three_and_six_mixing_the_modes_are_one_form(
    mode: str, count: int
) -> None:
    questions = SIX_QUESTIONS[:count]
    ids = [question["id"] for question in questions]
    content = {name: value for name, value in FORM_ANSWERS.items() if name.split(".")[0] in ids}
    dialog = Dialog(accept(**content))
    response = await ask(mode, dialog, DIALOG_BATCH | {"questions": questions})
    (params,) = dialog.shown
    plural = "s" if count > 1 else ""
    assert params.message == f"Project set-up\n\n{count} question{plural}: answer each below."
    asked = [name for name in form_of(params)["properties"] if name != "batch.note"]
    assert [name.split(".")[0] for name in asked if not name.endswith(".own_answer")] == ids
    assert response["action_status"] == "selected"
    assert [answer["id"] for answer in response["answers"]] == ids
    assert {
        answer["id"]: (answer["selected_ids"], answer["custom_input"])
        for answer in response["answers"]
    } == {question_id: EXPECTED_ANSWERS[question_id] for question_id in ids}
    assert response["selection"]["summary"].startswith(f"Answered {count} question{plural}.")


@pytest.mark.parametrize("mode", MODES)
async def test_an_answer_that_does_not_fit_is_asked_again_naming_the_question(mode: str) -> None:
    dialog = Dialog(
        accept(db="nope", features=[], name=""),
        accept(db="pg", features=["auth"], name="billing", region="eu"),
    )
    response = await ask(mode, dialog, DIALOG_BATCH)
    _first, second = dialog.shown
    assert isinstance(second, types.ElicitRequestFormParams)
    assert second.message.startswith(
        "Your answer did not fit: Database: 'nope' is not one of the options; Features: choose "
        "1 to 2 options (0 chosen); name: type an answer. Please answer again."
    )
    assert [answer["selected_ids"] for answer in response["answers"]] == [
        ["pg"],
        ["auth"],
        [],
        ["eu"],
    ]


@pytest.mark.parametrize("mode", MODES)
async def test_declining_the_batchs_form_cancels_it_and_the_rest_follow_the_timeout_action(
    mode: str,
) -> None:
    save_settings(InteractionSettings(timeout_action="return_defaults"))
    questions = [BATCH_QUESTIONS[0] | {"default_selection_ids": ["lite"]}, *BATCH_QUESTIONS[1:]]
    dialog = Dialog(types.ElicitResult(action="decline"))
    response = await ask(mode, dialog, DIALOG_BATCH | {"questions": questions})
    assert response["action_status"] == "cancelled"
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], [], [], []]
    assert response["selection"]["summary"].startswith(
        "The person declined to answer in the MCP client's dialog after 0 of 4 questions. "
        "Database: Not answered; defaults returned, not chosen by the person: SQLite."
    )
