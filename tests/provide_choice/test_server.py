"""The MCP server as an agent sees it, through the SDK's in-memory client: the two tools, the
decision policy, results, progress while waiting, cancellation, and the transport rule."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import CallToolResult, TextContent

from provide_choice import (
    Answered,
    Cancelled,
    Ending,
    Interaction,
    InteractionSettings,
    PendingQuestion,
    ProvideChoiceResponse,
    TimedOut,
    Transport,
    TransportName,
    choose_transport,
    create_server,
    parse_request,
    save_settings,
)
from provide_choice._contract._transport_table import ClientFeatures
from provide_choice._question import effective_timeout
from provide_choice._transports._base import Caller

QUESTION = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


class Recorder:
    """A transport that ends the question as told after `delay` seconds and remembers what it was
    asked; `cancelled` is set when the agent's cancel ends the question instead."""

    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, outcome: Ending, delay: float = 0.0) -> None:
        self.outcome = outcome
        self.delay = delay
        self.interactions: list[Interaction] = []
        self.cancelled = asyncio.Event()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        self.interactions.append(question.interaction)
        answer = asyncio.get_running_loop().call_later(self.delay, question.finish, self.outcome)

        def ended(question: PendingQuestion) -> None:
            answer.cancel()
            if question.outcome == Cancelled(by="agent"):
                self.cancelled.set()

        question.on_finish(ended)


async def call(
    transports: dict[TransportName, Transport], arguments: dict[str, Any], **options: Any
) -> CallToolResult:
    async with Client(create_server(transports, heartbeat_seconds=0.05)) as client:
        return await client.call_tool("provide_choice", arguments, **options)


def text_of(result: CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return content.text


async def test_lists_both_tools_with_the_decision_policy() -> None:
    async with Client(create_server()) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        instructions = client.instructions or ""
    assert set(tools) == {"provide_choice", "present_choices"}
    description = tools["provide_choice"].description or ""
    for text in (instructions, description):
        assert "more than two viable paths" in text
        assert "before a destructive action" in text
        assert "required configuration is missing" in text
        assert "Never guess a default" in text
    assert "allow_cancel is accepted and ignored: the person can always cancel" in description
    assert tools["provide_choice"].output_schema == ProvideChoiceResponse.model_json_schema()
    assert "title" in tools["provide_choice"].input_schema["properties"]
    assert tools["present_choices"].input_schema["required"] == ["question", "options"]


async def test_answer_is_structured_content_and_the_same_json_as_text() -> None:
    terminal = Recorder(Answered(selected_ids=["lite"], global_annotation="small app"))
    result = await call({"terminal": terminal}, QUESTION)
    assert not result.is_error
    assert json.loads(text_of(result)) == result.structured_content
    assert result.structured_content == {
        "action_status": "selected",
        "answered_by": "person",
        "selection": {
            "selected_ids": ["lite"],
            "custom_input": None,
            "option_annotations": {},
            "global_annotation": "small app",
            "placeholder_used": False,
            "transport": "terminal",
            "session_id": None,
            "url": None,
            "summary": "Selected: SQLite (with an overall note).",
        },
    }


async def test_the_transport_gets_the_validated_request_settings_and_deadline(home: Path) -> None:
    save_settings(InteractionSettings(timeout_override_seconds=900, annotations=False))
    terminal = Recorder(Answered(selected_ids=["pg"]))
    before = anyio.current_time()
    await call({"terminal": terminal}, QUESTION | {"timeout_seconds": 30})
    (interaction,) = terminal.interactions
    assert interaction.request == parse_request(QUESTION | {"timeout_seconds": 30})
    assert interaction.settings.annotations is False
    assert effective_timeout(interaction.request, interaction.settings) == 900
    assert before + 899 < interaction.deadline < anyio.current_time() + 900


async def test_progress_reports_the_time_left_while_the_person_answers() -> None:
    reports: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    terminal = Recorder(Answered(selected_ids=["pg"]), delay=0.3)
    await call(
        {"terminal": terminal}, QUESTION | {"timeout_seconds": 60}, progress_callback=on_progress
    )
    assert len(reports) >= 3
    assert all(total == 60 for _, total, _ in reports)
    assert [progress for progress, _, _ in reports] == sorted(
        progress for progress, _, _ in reports
    )
    assert reports[0][2] == "Waiting for the person to answer: 60 s left"


class Relocating(Recorder):
    """A transport that shows the question at an address and lets the person add time."""

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        self.interactions.append(question.interaction)
        question.show_at("http://127.0.0.1:1/choice/q")
        loop = asyncio.get_running_loop()
        loop.call_later(0.2, lambda: question.extend_deadline(question.seconds_left() + 100))
        loop.call_later(0.4, question.finish, self.outcome)


async def test_progress_tells_where_the_question_waits_and_follows_a_moved_deadline() -> None:
    reports: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    async with Client(
        create_server({"terminal": Relocating(Answered(selected_ids=["pg"]))})
    ) as client:
        await client.call_tool(
            "provide_choice",
            QUESTION | {"timeout_seconds": 60},
            progress_callback=on_progress,
        )
    messages = [message or "" for _, _, message in reports]
    assert "Waiting for the person to answer at http://127.0.0.1:1/choice/q: 60 s left" in messages
    assert (
        messages[-1]
        == "Waiting for the person to answer at http://127.0.0.1:1/choice/q: 160 s left"
    )
    assert reports[-1][1] == 160
    assert [progress for progress, _, _ in reports] == sorted(
        progress for progress, _, _ in reports
    )


async def test_client_cancellation_closes_the_question_and_returns_nothing() -> None:
    terminal = Recorder(Answered(selected_ids=["pg"]), delay=30)
    async with Client(create_server({"terminal": terminal})) as client:
        with anyio.move_on_after(0.3) as scope:
            await client.call_tool("provide_choice", QUESTION)
        assert scope.cancelled_caught
        with anyio.fail_after(5):
            await terminal.cancelled.wait()
        # The server goes on serving after a cancelled call.
        assert len((await client.list_tools()).tools) == 2


async def test_timeout_outcome_from_the_transport_is_normalized() -> None:
    terminal = Recorder(TimedOut(action="return_defaults"))
    result = await call({"terminal": terminal}, QUESTION | {"default_selection_ids": ["pg"]})
    assert result.structured_content["action_status"] == "timeout"
    assert result.structured_content["selection"]["selected_ids"] == ["pg"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (QUESTION, "this server was set up without the page (web), and has no terminal"),
        (QUESTION | {"transport": "web"}, "this server was set up without the page (web)"),
        (
            QUESTION | {"transport": "terminal"},
            "transport 'terminal' needs a terminal, and this server has none",
        ),
    ],
)
async def test_without_a_terminal_the_error_says_what_to_do(
    arguments: dict[str, Any], message: str
) -> None:
    result = await call({}, arguments)
    assert result.is_error
    assert message in text_of(result)
    assert "provide-choice serve" in text_of(result)


async def test_the_persons_preferred_transport_applies_when_the_agent_names_none(
    home: Path,
) -> None:
    save_settings(InteractionSettings(transport="web"))
    terminal = Recorder(Answered(selected_ids=["pg"]))
    result = await call({"terminal": terminal}, QUESTION)
    assert "without the page (web)" in text_of(result)
    assert terminal.interactions == []


async def test_polling_an_unknown_session_is_a_clear_error() -> None:
    result = await call({}, {"session_id": "s-123"})
    assert result.is_error
    assert "session_id 's-123' is not an open question of this server" in text_of(result)
    assert "Call provide_choice again without session_id" in text_of(result)


DIALOG = ClientFeatures(form=True)
NO_DIALOG = ClientFeatures()


@pytest.mark.parametrize(
    ("requested", "preferred", "terminal", "client", "chosen"),
    [
        (None, "auto", True, NO_DIALOG, "terminal"),
        (None, "auto", False, NO_DIALOG, "web"),
        (None, "auto", False, DIALOG, "elicitation"),
        (None, "auto", True, DIALOG, "terminal"),
        ("terminal", "auto", True, DIALOG, "terminal"),
        ("terminal", "web", False, DIALOG, "terminal_handoff"),
        ("web", "terminal", True, DIALOG, "web"),
        ("elicitation", "web", False, DIALOG, "elicitation"),
        ("elicitation", "auto", True, NO_DIALOG, "web"),
        (None, "web", False, DIALOG, "web"),
        (None, "terminal", False, DIALOG, "terminal_handoff"),
        (None, "elicitation", True, DIALOG, "elicitation"),
        (None, "elicitation", True, NO_DIALOG, "terminal"),
        (None, "elicitation", False, NO_DIALOG, "web"),
    ],
)
def test_choose_transport(
    requested: Any, preferred: Any, terminal: bool, client: ClientFeatures, chosen: str
) -> None:
    configured = {"terminal_handoff", "web", "elicitation"} | ({"terminal"} if terminal else set())
    choice = choose_transport(requested, preferred, configured.__contains__, client)
    assert choice is not None
    assert choice.transport == chosen
    fell_back = requested == "elicitation" and chosen != "elicitation"
    assert (choice.note is not None) == fell_back


async def test_present_choices_is_served_from_the_present_choices_package() -> None:
    async with Client(create_server()) as client:
        good = await client.call_tool(
            "present_choices", {"question": "Which?", "options": ["A", "B"]}
        )
        bad = await client.call_tool(
            "present_choices", {"question": "Which?", "options": ["A"], "x": 1}
        )
    assert "```choices" in text_of(good)
    assert bad.is_error
    assert text_of(bad).splitlines()[1:] == [
        "- options must have 2 to 4 items, got 1",
        "- x is not an allowed field; allowed: question, options, context",
    ]


def test_server_start_up_does_not_load_user_interface_libraries() -> None:
    code = (
        "import sys, provide_choice._server._mcp_server, provide_choice._server._serve, provide_choice.__main__\n"
        "print(sorted(name for name in ('questionary', 'prompt_toolkit', 'fastapi', 'nicegui') "
        "if name in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"


async def test_regression_an_error_result_lists_twenty_problems_and_counts_the_rest() -> None:
    options = [{"id": f"o{index}", "label": " "} for index in range(500)]
    result = await call({}, QUESTION | {"options": options})
    lines = text_of(result).splitlines()
    assert result.is_error
    assert len(lines) == 22
    assert lines[-1].startswith("- and ")
    assert lines[-1].endswith("more problems of the same kinds")


async def test_regression_the_server_names_its_version_and_advertises_only_what_it_has() -> None:
    # serverInfo.version was empty, and prompts and resources were advertised without any. The
    # only resources now are the tools' MCP Apps views.
    from importlib.metadata import version

    async with Client(create_server()) as client:
        info, capabilities = client.server_info, client.server_capabilities
        resources = (await client.list_resources()).resources
    assert info is not None
    assert info.name == "provide-choice"
    assert info.version == version("agent-choices")
    assert capabilities is not None
    assert capabilities.tools is not None
    assert capabilities.prompts is None
    assert capabilities.resources is not None
    assert sorted(resource.uri for resource in resources) == [
        "ui://provide-choice/present-choices.html",
        "ui://provide-choice/provide-choice.html",
    ]
