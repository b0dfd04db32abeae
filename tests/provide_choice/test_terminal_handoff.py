"""The terminal hand-off as an agent and a `choice-terminal` see it, without a terminal: the MCP
SDK's in-memory client makes the calls, httpx plays the client on the real bridge."""

from __future__ import annotations

import os
import shlex
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from local_http import LocalHTTP
from mcp import Client
from mcp_types import CallToolResult, TextContent
from waiting import until

from present_choices import ChoicesError
from present_choices._translation import ENGLISH
from provide_choice import (
    Cancelled,
    InteractionSettings,
    create_server,
    load_settings,
    save_settings,
)
from provide_choice._bridge._bridge import Bridge
from provide_choice._contract._setting_changes import shown_settings
from provide_choice._question import QuestionRegistry
from provide_choice._server._serve import _until_stopped
from provide_choice._transports._terminal_handoff._command import client_command
from provide_choice._transports._terminal_handoff._remote import HandoffFailed, RemoteQuestion
from provide_choice._transports._terminal_handoff._transport import TerminalHandoffTransport
from provide_choice.transports import TransportSetup

QUESTION = {
    "title": "Migration",
    "prompt": "The schema changed. How should I migrate the production data?",
    "selection_mode": "multi",
    "options": [
        {"id": "backup", "label": "Back up first", "recommended": True},
        {"id": "online", "label": "Online migration"},
        {"id": "window", "label": "Maintenance window"},
    ],
    "max_selections": 2,
    "default_selection_ids": ["backup"],
    "transport": "terminal",
}


@dataclass
class Handoff:
    """A server with the hand-off (and no terminal of its own), connected to an MCP client."""

    client: Client
    bridge: Bridge
    questions: QuestionRegistry

    async def launch(self, **changes: Any) -> dict[str, Any]:
        result = await self.client.call_tool("provide_choice", QUESTION | changes)
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        return result.structured_content

    async def poll(self, session_id: str, **options: Any) -> CallToolResult:
        return await self.client.call_tool("provide_choice", {"session_id": session_id}, **options)


@asynccontextmanager
async def serving(linger_seconds: float = 2.0) -> AsyncIterator[Handoff]:
    """The server and its client (a context manager, not a fixture: the client's task group must
    be entered and left in the test's own task). The bridge lingers as in production unless a test
    waits for it to stop."""
    bridge, questions = Bridge(linger_seconds=linger_seconds), QuestionRegistry()
    server = create_server(
        {"terminal_handoff": TerminalHandoffTransport(bridge, questions)},
        heartbeat_seconds=0.05,
        setup=TransportSetup(questions),
    )
    try:
        async with Client(server) as client:
            yield Handoff(client, bridge, questions)
    finally:
        await bridge.aclose()


def text_of(result: CallToolResult) -> str:
    (content,) = result.content
    assert isinstance(content, TextContent)
    return content.text


async def post(url: str, body: object, **options: Any) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.post(url, json=body, **options)


async def get(url: str) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        return await http.get(url)


async def attach(selection: dict[str, Any]) -> dict[str, Any]:
    response = await post(selection["url"] + "/attach", {})
    assert response.status_code == 200, response.text
    payload: dict[str, Any] = response.json()
    return payload


async def test_the_first_call_returns_at_once_with_the_command_and_the_session() -> None:
    async with serving() as handoff:
        launched = time.monotonic()
        with anyio.fail_after(2):
            response = await handoff.launch()
        selection = response["selection"]
        assert response["action_status"] == "pending_terminal_launch"
        assert selection["transport"] == "terminal_handoff"
        session_id, base = selection["session_id"], handoff.bridge.base_url
        assert base is not None
        assert selection["url"] == f"{base}/terminal/{session_id}"
        program, *arguments = shlex.split(selection["summary"])
        assert Path(program).name == "choice-terminal"
        assert arguments == ["--session", session_id, "--url", base]
        state = (await get(selection["url"])).json()
        assert state["status"] == "pending"
        assert state["title"] == "Migration"
        assert 300 - (time.monotonic() - launched) <= state["seconds_left"] <= 300


async def test_answer_posted_by_the_client_comes_back_to_the_poll_and_the_session_is_gone() -> None:
    async with serving() as handoff:
        launched = time.monotonic()
        selection = (await handoff.launch())["selection"]
        session = await attach(selection)
        assert session["request"]["options"][1] == {
            "id": "online",
            "label": "Online migration",
            "description": None,
            "recommended": False,
        }
        assert session["settings"] == shown_settings(InteractionSettings())
        assert 300 - (time.monotonic() - launched) <= session["seconds_left"] <= 300
        answer = {
            "kind": "answered",
            "selected_ids": ["window", "backup"],
            "option_annotations": {"window": "Sunday night"},
            "global_annotation": "tell the team",
        }
        assert (await post(selection["url"] + "/result", answer)).status_code == 200
        result = await handoff.poll(selection["session_id"])
        assert result.structured_content == {
            "action_status": "selected",
            "answered_by": "person",
            "selection": {
                "selected_ids": ["backup", "window"],
                "custom_input": None,
                "option_annotations": {"window": "Sunday night"},
                "global_annotation": "tell the team",
                "placeholder_used": False,
                "transport": "terminal_handoff",
                "session_id": None,
                "url": selection["url"],
                "summary": (
                    "Selected: Back up first, Maintenance window "
                    "(with notes on Maintenance window and an overall note)."
                ),
            },
        }
        again = await handoff.poll(selection["session_id"])
        assert again.is_error
        assert "single-use" in text_of(again)
        assert "Call provide_choice again without session_id" in text_of(again)
        assert (await get(selection["url"])).status_code == 404


async def test_the_poll_waits_for_the_answer_and_reports_the_time_left() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch(timeout_seconds=60))["selection"]
        reports: list[tuple[float, float | None, str | None]] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            reports.append((progress, total, message))

        async def answer_later() -> None:
            await attach(selection)
            await anyio.sleep(0.3)
            await post(selection["url"] + "/result", {"kind": "cancelled"})

        async with anyio.create_task_group() as group:
            group.start_soon(answer_later)
            result = await handoff.poll(selection["session_id"], progress_callback=on_progress)
        assert result.structured_content is not None
        assert result.structured_content["action_status"] == "cancelled"
        assert len(reports) >= 3
        assert all(total == 60 for _, total, _ in reports)
        assert reports[0][2] is not None
        assert reports[0][2].startswith(f"Waiting for the person to answer at {selection['url']}: ")


async def test_a_cancelled_poll_leaves_the_session_for_a_retried_poll() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        with anyio.move_on_after(0.3) as scope:
            await handoff.poll(selection["session_id"])
        assert scope.cancelled_caught
        await attach(selection)
        await post(selection["url"] + "/result", {"kind": "answered", "selected_ids": ["online"]})
        result = await handoff.poll(selection["session_id"])
        assert result.structured_content is not None
        assert result.structured_content["selection"]["selected_ids"] == ["online"]


async def test_without_an_attach_the_poll_returns_the_timeout_at_the_deadline() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch(timeout_seconds=1))["selection"]
        with anyio.fail_after(3):
            result = await handoff.poll(selection["session_id"])
        assert result.structured_content is not None
        assert result.structured_content["action_status"] == "timeout"
        assert result.structured_content["selection"]["selected_ids"] == ["backup"]


async def test_an_expired_session_refuses_the_client_with_410() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch(timeout_seconds=1))["selection"]
        await handoff.launch()  # another pending session keeps the bridge up meanwhile
        await anyio.sleep(1.1)
        for response in (await get(selection["url"]), await post(selection["url"] + "/attach", {})):
            assert response.status_code == 410
            assert "expired" in response.json()["problems"][0]


async def test_a_second_attach_and_a_second_result_are_refused_with_409() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        await attach(selection)
        second = await post(selection["url"] + "/attach", {})
        assert second.status_code == 409
        assert "already open in another terminal" in second.json()["problems"][0]
        cancel = {"kind": "cancelled"}
        assert (await post(selection["url"] + "/result", cancel)).status_code == 200
        again = await post(selection["url"] + "/result", cancel)
        assert again.status_code == 409
        assert "already answered or cancelled" in again.json()["problems"][0]
        late_attach = await post(selection["url"] + "/attach", {})
        assert late_attach.status_code == 409


async def test_a_result_without_attaching_first_is_refused_with_409() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        response = await post(selection["url"] + "/result", {"kind": "cancelled"})
        assert response.status_code == 409
        assert handoff.questions.get(selection["session_id"]) is not None


@pytest.mark.parametrize(
    ("body", "reasons"),
    [
        (
            {"kind": "answered", "selected_ids": ["backup", "online", "window"]},
            ["selected_ids must hold 1 to 2 ids, got 3"],
        ),
        (
            {"kind": "answered", "selected_ids": ["dropdb"]},
            ["selected_ids: 'dropdb' is not an option id"],
        ),
        (
            {"kind": "answered", "selected_ids": ["backup"], "custom_input": "yolo"},
            ["custom_input is not allowed for multi"],
        ),
        ({"kind": "answered", "selected_ids": "backup"}, None),
        ({"kind": "maybe"}, None),
        (
            {
                "kind": "pending_terminal_launch",
                "session_id": "x",
                "url": "http://127.0.0.1:1",
                "command": "rm -rf /",
            },
            [
                "kind must be one of 'answered', 'cancelled', 'timeout', "
                "got 'pending_terminal_launch'"
            ],
        ),
        ([1, 2], None),
    ],
)
async def test_an_invalid_result_gets_422_with_the_reason_and_the_session_stays_open(
    body: object, reasons: list[str] | None
) -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        await attach(selection)
        refused = await post(selection["url"] + "/result", body)
        assert refused.status_code == 422
        detail = refused.json()["problems"]
        assert isinstance(detail, list)
        assert detail
        if reasons is not None:
            assert detail == reasons
        assert handoff.questions.get(selection["session_id"]).status == "attached"  # type: ignore[union-attr]
        valid = {"kind": "answered", "selected_ids": ["backup"]}
        assert (await post(selection["url"] + "/result", valid)).status_code == 200


async def test_a_body_that_is_not_json_gets_422() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        await attach(selection)
        async with httpx.AsyncClient() as http:
            response = await http.post(
                selection["url"] + "/result",
                content=b"{not json",
                headers={"Content-Type": "application/json"},
            )
        assert response.status_code == 422
        assert response.json()["problems"][0].startswith("the body must be JSON")


async def test_the_terminal_routes_refuse_foreign_hosts_origins_and_non_json() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        url = selection["url"]
        async with httpx.AsyncClient() as http:
            rebound = await http.post(
                url + "/attach", json={}, headers={"Host": "attacker.example"}
            )
            cross_site = await http.post(
                url + "/attach", json={}, headers={"Origin": "http://attacker.example"}
            )
            form = await http.post(url + "/attach", data={"a": "1"})
            peek = await http.get(url, headers={"Host": "attacker.example"})
        assert [
            rebound.status_code,
            cross_site.status_code,
            form.status_code,
            peek.status_code,
        ] == [
            403,
            403,
            415,
            403,
        ]
        assert handoff.questions.get(selection["session_id"]).status == "pending"  # type: ignore[union-attr]


async def test_unknown_sessions_get_404_on_every_route() -> None:
    async with serving() as handoff:
        await handoff.launch()
        base = handoff.bridge.base_url
        for response in (
            await get(f"{base}/terminal/nope"),
            await post(f"{base}/terminal/nope/attach", {}),
            await post(f"{base}/terminal/nope/result", {"kind": "cancelled"}),
        ):
            assert response.status_code == 404
            assert "ask the agent to call provide_choice again" in response.json()["problems"][0]


async def test_settings_changed_in_the_client_are_saved_and_set_the_timeout_action(
    home: Path,
) -> None:
    async with serving() as handoff:
        # Long enough for the three requests before it on a busy machine; the poll waits it out.
        selection = (await handoff.launch(timeout_seconds=3))["selection"]
        await attach(selection)
        changed = InteractionSettings(timeout_action="return_nothing", annotations=False)
        response = await post(
            selection["url"] + "/settings",
            {"timeout_action": "return_nothing", "annotations": False},
        )
        assert response.status_code == 200
        assert load_settings() == changed
        bad = await post(selection["url"] + "/settings", {"timeout_action": "explode"})
        assert bad.status_code == 422
        result = await handoff.poll(selection["session_id"])
        assert result.structured_content is not None
        assert result.structured_content["action_status"] == "timeout"
        assert result.structured_content["selection"]["selected_ids"] == []


async def test_a_timeout_set_in_the_client_extends_the_live_deadline() -> None:
    async with serving() as handoff:
        selection = (await handoff.launch(timeout_seconds=30))["selection"]
        await attach(selection)
        response = await post(selection["url"] + "/settings", {"timeout_override_seconds": 600})
        assert response.status_code == 200
        question = handoff.questions.get(selection["session_id"])
        assert question is not None
        assert 590 < question.seconds_left() <= 600


async def test_regression_the_client_saves_only_what_the_person_changed(home: Path) -> None:
    # choice-terminal saved the whole settings object it loaded at the start, reverting a change
    # made meanwhile on another surface.
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        await attach(selection)
        save_settings(InteractionSettings(placeholder_visible=False))  # changed elsewhere meanwhile
        response = await post(selection["url"] + "/settings", {"annotations": False})
        assert response.status_code == 200
    assert load_settings() == InteractionSettings(placeholder_visible=False, annotations=False)


async def test_the_bridge_stops_once_the_last_session_ends_and_restarts_for_the_next() -> None:
    async with serving(linger_seconds=0.2) as handoff:
        first = (await handoff.launch())["selection"]
        second = (await handoff.launch())["selection"]
        for selection in (first, second):
            await attach(selection)
        await post(first["url"] + "/result", {"kind": "cancelled"})
        await anyio.sleep(0.4)
        assert handoff.bridge.base_url is not None, "a session is still pending"
        await post(second["url"] + "/result", {"kind": "cancelled"})
        await until(lambda: handoff.bridge.base_url is None, "the bridge stops after the last one")
        # Finished sessions are still fetched over MCP, which needs no bridge.
        assert (await handoff.poll(first["session_id"])).structured_content is not None
        third = (await handoff.launch())["selection"]
        assert (await get(third["url"])).json()["status"] == "pending"


async def test_the_persons_preferred_terminal_hands_off_when_the_agent_names_no_transport() -> None:
    async with serving() as handoff:
        save_settings(InteractionSettings(transport="terminal"))
        response = await handoff.launch(transport=None)
        assert response["action_status"] == "pending_terminal_launch"


def test_the_command_names_the_script_by_its_full_path_when_path_would_not_find_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    installed = Path(sys.executable).parent / "choice-terminal"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert client_command("abc", "http://127.0.0.1:5") == (
        f"{shlex.quote(str(installed))} --session abc --url http://127.0.0.1:5"
    )
    monkeypatch.setenv("PATH", f"{installed.parent}{os.pathsep}/usr/bin")
    assert client_command("abc", "http://127.0.0.1:5") == (
        "choice-terminal --session abc --url http://127.0.0.1:5"
    )


def test_the_tool_description_says_sessions_are_single_use() -> None:
    from provide_choice._server._mcp_server import TOOL_DESCRIPTION

    assert "Sessions are single-use" in TOOL_DESCRIPTION
    assert "a retry needs a new call without session_id" in TOOL_DESCRIPTION


async def test_regression_an_empty_registry_given_to_create_server_is_the_one_it_polls() -> None:
    # An empty QuestionRegistry is falsy (it has a length); `questions or QuestionRegistry()` once
    # replaced it with a private one, so every poll answered "not a pending hand-off".
    bridge, questions = Bridge(), QuestionRegistry()
    server = create_server(
        {"terminal_handoff": TerminalHandoffTransport(bridge, questions)},
        setup=TransportSetup(questions),
    )
    try:
        async with Client(server) as client:
            launched = await client.call_tool("provide_choice", QUESTION)
            assert launched.structured_content is not None
            session_id = launched.structured_content["selection"]["session_id"]
            question = questions.get(session_id)
            assert question is not None
            question.finish(Cancelled())
            polled = await client.call_tool("provide_choice", {"session_id": session_id})
    finally:
        await bridge.aclose()
    assert polled.structured_content is not None
    assert polled.structured_content["action_status"] == "cancelled"


async def test_the_bridge_stops_when_the_mcp_server_stops_even_on_an_error() -> None:
    bridge = Bridge()

    async def serve_then_fail() -> None:
        await bridge.acquire()
        raise RuntimeError("the MCP server stopped")

    with pytest.raises(RuntimeError):
        await _until_stopped(serve_then_fail, bridge)
    assert bridge.base_url is None


async def test_a_bridge_that_cannot_start_is_an_error_result_naming_the_port() -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        bridge, questions = Bridge(port=port), QuestionRegistry()
        server = create_server(
            {"terminal_handoff": TerminalHandoffTransport(bridge, questions)},
            setup=TransportSetup(questions),
        )
        async with Client(server) as client:
            result = await client.call_tool("provide_choice", QUESTION)
    assert result.is_error
    assert f"the local bridge cannot listen on 127.0.0.1:{port}: Address already in use" in (
        text_of(result)
    )
    assert len(questions) == 0


BATCH = {
    "title": "Release",
    "transport": "terminal",
    "questions": [
        {
            "id": "plan",
            "header": "Plan",
            "prompt": "How should I migrate?",
            "selection_mode": "single",
            "options": QUESTION["options"],
        },
        {"id": "note", "prompt": "Anything to tell ops?", "selection_mode": "text_input"},
    ],
}


async def test_a_batch_is_handed_off_whole_and_the_answers_kept_as_posted_survive_a_cancel() -> (
    None
):
    async with serving() as handoff:
        result = await handoff.client.call_tool("provide_choice", BATCH)
        selection = result.structured_content["selection"]  # type: ignore[index]
        session = await attach(selection)
        assert [item["id"] for item in session["request"]["questions"]] == ["plan", "note"]
        kept = {"question_id": "plan", "submission": {"selected_ids": ["online"]}}
        assert (await post(selection["url"] + "/keep", kept)).status_code == 200
        assert (await post(selection["url"] + "/result", {"kind": "cancelled"})).status_code == 200
        polled = await handoff.poll(selection["session_id"])
    response = polled.structured_content
    assert response is not None
    assert response["action_status"] == "cancelled"
    assert [answer["selected_ids"] for answer in response["answers"]] == [["online"], []]


async def test_a_batch_answer_posted_whole_is_each_question_through_the_one_meaning() -> None:
    async with serving() as handoff:
        result = await handoff.client.call_tool("provide_choice", BATCH)
        selection = result.structured_content["selection"]  # type: ignore[index]
        await attach(selection)
        submitted = {
            "kind": "answered_batch",
            "answers": {"plan": {"selected_ids": ["window"]}, "note": {"custom_input": "ok"}},
        }
        assert (await post(selection["url"] + "/result", submitted)).status_code == 200
        polled = await handoff.poll(selection["session_id"])
    response = polled.structured_content
    assert response is not None
    assert response["action_status"] == "selected"
    assert [answer["custom_input"] for answer in response["answers"]] == [None, "ok"]


@pytest.mark.parametrize(
    ("body", "problems"),
    [
        (
            {"question_id": "other", "submission": {"selected_ids": ["backup"]}},
            ["other: is not a question of this batch"],
        ),
        ({"question_id": "plan"}, ["submission is required"]),
    ],
)
async def test_a_kept_answer_the_bridge_cannot_take_gets_422_with_the_reason(
    body: object, problems: list[str]
) -> None:
    async with serving() as handoff:
        result = await handoff.client.call_tool("provide_choice", BATCH)
        selection = result.structured_content["selection"]  # type: ignore[index]
        await attach(selection)
        refused = await post(selection["url"] + "/keep", body)
    assert refused.status_code == 422
    assert refused.json()["problems"] == problems


async def test_keeping_an_answer_needs_an_attached_batch() -> None:
    async with serving() as handoff:
        batch = (await handoff.client.call_tool("provide_choice", BATCH)).structured_content
        body = {"question_id": "plan", "submission": {"selected_ids": ["backup"]}}
        before = await post(batch["selection"]["url"] + "/keep", body)  # type: ignore[index]
        single = (await handoff.launch())["selection"]
        await attach(single)
        not_a_batch = await post(single["url"] + "/keep", body)
    assert before.status_code == 409
    assert not_a_batch.status_code == 422
    assert not_a_batch.json()["problems"] == [
        "this session asks one question: post its answer to .../result"
    ]


async def test_regression_a_settings_change_the_client_holds_alone_is_checked_as_the_server_would(
    home: Path,
) -> None:
    # choice-terminal applied a change the server refused (422), or any change once the server was
    # gone, to its screen unchecked: an invalid timeout action then stood on the settings screen.
    async with serving() as handoff:
        selection = (await handoff.launch())["selection"]
        question = RemoteQuestion(selection["url"])
        await anyio.to_thread.run_sync(question.attach)  # a blocking call, as in choice-terminal
        with pytest.raises(ChoicesError, match="timeout_action"):
            await question.apply_settings({"timeout_action": "explode"})
        assert question.settings == InteractionSettings()
    gone = RemoteQuestion(selection["url"])  # the server stopped with the test's `async with`
    with pytest.raises(ChoicesError, match="timeout_action"):
        await gone.apply_settings({"timeout_action": "explode"})
    held = await gone.apply_settings({"timeout_action": "return_nothing"})
    assert held.timeout_action == "return_nothing"


@pytest.mark.parametrize(
    ("status", "headers", "body", "said"),
    [
        (302, {"Location": "/elsewhere"}, b"", "the server answered HTTP 302"),
        (200, {"Content-Type": "text/html"}, b"<html>a proxy's page</html>", "cannot read"),
        (503, {"Content-Type": "text/html"}, b"<html>down</html>", "the server answered HTTP 503"),
        (409, {"Content-Type": "application/json"}, b'{"problems": ["claimed"]}', "claimed"),
    ],
)
def test_the_client_says_in_one_line_what_an_odd_answer_means(
    status: int, headers: dict[str, str], body: bytes, said: str
) -> None:
    """What answers at the bridge's address is not always the bridge (a proxy's page, a
    redirect): choice-terminal follows no redirect and reads no page, and says what happened."""

    def serve(request: BaseHTTPRequestHandler) -> None:
        request.rfile.read(int(request.headers["Content-Length"]))
        request.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(body))}.items():
            request.send_header(name, value)
        request.end_headers()
        request.wfile.write(body)

    http = LocalHTTP(serve)
    port = http.open()
    try:
        with pytest.raises(HandoffFailed) as failed:
            RemoteQuestion(f"http://127.0.0.1:{port}/handoff/abc").attach()
    finally:
        http.close()
    assert said in failed.value.said(ENGLISH)


def test_the_client_says_nothing_answers_once_the_server_is_gone() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(HandoffFailed) as failed:
        RemoteQuestion(f"http://127.0.0.1:{port}/handoff/abc").attach()
    assert "nothing answers at this address any more" in failed.value.said(ENGLISH)
