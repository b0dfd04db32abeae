"""`AGUIAgent` against a real AG-UI server nobody here wrote: pydantic-ai's own AG-UI adapter over a
scripted `FunctionModel` (no real model, no key), served on a free port of 127.0.0.1.

What pydantic-ai's adapter does with the chat's frontend tool, what the chat shows of each run, and
every way a run can go wrong (each a notice from the app; what the agent already said is kept).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import AsyncIterator, Iterator, Sequence

import pytest
from chat_views import open_chat
from extras import NEEDS_AG_UI_SERVER
from prompts import DATABASE
from waiting import until

pytest.importorskip("pydantic_ai.ui.ag_ui", reason=NEEDS_AG_UI_SERVER, exc_type=ImportError)

from agui_server import (
    AGUIServer,
    choices_call,
    dropped_stream,
    event_stream,
    html_page,
    started_then_text,
)
from nicegui.testing import User
from pydantic_ai import models
from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from starlette.responses import JSONResponse

from chat_ui import AGUIAgent, BlockState, Message, ReplyChunk
from chat_ui._agents.agui._agent import server_sent_data
from chat_ui._model._reply import ReplyDraft
from chat_ui._nicegui._chat_view import ChatLog
from chat_ui._nicegui._message import AssistantMessage, ErrorMessage

pytestmark = pytest.mark.nicegui_main_file("")

WAIT = 50  # tries, 0.1 s apart, for what a run over HTTP brings to the page (the default is 3)


@pytest.fixture(scope="module")
def server() -> Iterator[AGUIServer]:
    with AGUIServer() as running:
        yield running


@pytest.fixture(autouse=True)
def fresh(server: AGUIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "ALLOW_MODEL_REQUESTS", False)
    server.clear()


@pytest.fixture
async def user(user: User) -> AsyncIterator[User]:
    yield user
    await asyncio.sleep(0.05)  # the page's last updates, as in test_llm_agent.py


async def reply(agent: AGUIAgent, history: list[Message]) -> list[ReplyChunk]:
    """One turn, kept in `history` as the chat keeps it (stored as JSON); returns its chunks."""
    chunks = [chunk async for chunk in agent.reply(history)]
    draft = ReplyDraft()
    for chunk in chunks:
        draft.add(chunk)
    message = draft.message()
    if message is not None:
        history.append(json.loads(json.dumps(message)))
    history += [{"role": "error", "content": notice} for notice in draft.notices]
    return chunks


def said(chunks: Sequence[ReplyChunk]) -> str:
    return "".join(chunk for chunk in chunks if isinstance(chunk, str))


def notices(chunks: Sequence[ReplyChunk]) -> list[str]:
    return [chunk.text for chunk in chunks if hasattr(chunk, "text")]


async def test_pydantic_ai_ends_the_run_at_the_frontend_call_and_sees_its_result_next_run(
    server: AGUIServer,
) -> None:
    agent = AGUIAgent(server.url)
    history: list[Message] = []
    await reply(agent, history)  # the greeting: no run
    assert server.posted == []
    history.append({"role": "user", "content": "Set up a service"})
    server.turns += [["Two databases fit. ", *choices_call(DATABASE)], ["PostgreSQL it is."]]
    await reply(agent, history)
    assert server.offered_tools == [["present_choices"]], "the frontend tool reached the model"
    assert len(server.model_messages) == 1, "the frontend call ended the run"
    assert history[-1]["tool_call"] == {
        "id": "call_choices_1",
        "name": "present_choices",
        "arguments": DATABASE,
    }
    assert history[-1]["content"] == "Two databases fit."

    history.append({"role": "user", "content": "postgres"})
    assert said(await reply(agent, history)) == "PostgreSQL it is."
    *_, asked, answered = server.model_messages[-1]
    assert isinstance(asked, ModelResponse)
    assert [type(part) for part in asked.parts] == [TextPart, ToolCallPart]
    call = asked.parts[1]
    assert isinstance(call, ToolCallPart)
    assert (call.tool_name, call.tool_call_id, call.args_as_dict()) == (
        "present_choices",
        "call_choices_1",
        DATABASE,
    )
    assert isinstance(answered, ModelRequest)
    result, pick = answered.parts
    assert isinstance(result, ToolReturnPart)
    assert (result.tool_call_id, result.content) == ("call_choices_1", "postgres")
    assert isinstance(pick, UserPromptPart)
    assert pick.content == "postgres"


async def test_the_thread_is_started_with_the_greeting_and_kept_run_after_run(
    server: AGUIServer,
) -> None:
    agent = AGUIAgent(server.url)
    history: list[Message] = []
    await reply(agent, history)
    thread_id = history[0]["thread_id"]
    for text in ["one", "two"]:
        history.append({"role": "user", "content": text})
        await reply(agent, history)
    assert [body["threadId"] for body in server.posted] == [thread_id, thread_id]
    assert len({body["runId"] for body in server.posted}) == 2
    assert "thread_id" not in history[-1], "only the reply that started the thread names it"
    restarted = AGUIAgent(server.url)  # a restart of the app reads it back from the history
    history.append({"role": "user", "content": "three"})
    await reply(restarted, history)
    assert server.posted[-1]["threadId"] == thread_id


async def test_headers_go_with_every_run(server: AGUIServer) -> None:
    agent = AGUIAgent(server.url, headers={"Authorization": "Bearer secret", "X-Team": "docs"})
    await reply(agent, [{"role": "user", "content": "hi"}])
    (headers,) = server.headers
    assert headers["authorization"] == "Bearer secret"
    assert headers["x-team"] == "docs"
    assert headers["accept"] == "text/event-stream"
    assert headers["content-type"] == "application/json"


async def test_a_run_error_keeps_what_was_said_and_the_next_run_works(server: AGUIServer) -> None:
    server.turns += [["Let me check. ", RuntimeError("the model is overloaded")], ["Fine now."]]
    history: list[Message] = [{"role": "user", "content": "hi"}]
    agent = AGUIAgent(server.url)
    chunks = await reply(agent, history)
    assert said(chunks) == "Let me check. "
    assert notices(chunks) == ["The agent could not reply: the model is overloaded"]
    assert [message["role"] for message in history] == ["user", "assistant", "error"]
    history.append({"role": "user", "content": "again?"})
    assert said(await reply(agent, history)) == "Fine now."


def answer_cases() -> Iterator[tuple[str, object, str, str]]:
    """(name, raw answer, what was said first, what the notice says)."""
    yield (
        "malformed event",
        event_stream([*started_then_text("Half an answer"), "{not json"]),
        "Half an answer",
        'The agent\'s reply stopped: it sent data that is not JSON: "{not json".',
    )
    yield (
        "invalid event",
        event_stream([*started_then_text("Half"), '{"type": "TEXT_MESSAGE_CONTENT"}']),
        "Half",
        "it sent a TEXT_MESSAGE_CONTENT event that is not valid (messageId: Field required;",
    )
    yield (
        "stream cut off",
        event_stream(started_then_text("Half an answer")),
        "Half an answer",
        "The agent's reply was cut off: its stream ended before the run finished",
    )
    yield (
        "connection dropped",
        dropped_stream(started_then_text("Half an answer")),
        "Half an answer",
        "The agent's reply was cut off: the connection to http://127.0.0.1:",
    )
    yield (
        "html page",
        html_page(),
        "",
        "answered with text/html (HTTP 200) instead of an event stream (text/event-stream). "
        "Is it the address of an AG-UI agent?",
    )
    yield (
        "json 500",
        JSONResponse({"error": "database is down"}, status_code=500),
        "",
        'answered HTTP 500: {"error":"database is down"}.',
    )


@pytest.mark.parametrize(
    ("answer", "before", "notice"),
    [case[1:] for case in answer_cases()],
    ids=[case[0] for case in answer_cases()],
)
async def test_an_answer_that_is_no_proper_run_is_a_notice(
    server: AGUIServer, answer: object, before: str, notice: str
) -> None:
    server.raw_answers.append(answer)  # type: ignore[arg-type]
    chunks = await reply(AGUIAgent(server.url), [{"role": "user", "content": "hi"}])
    assert said(chunks) == before
    (shown,) = notices(chunks)
    assert notice in shown
    assert "Traceback" not in shown


async def test_a_refused_connection_is_a_notice() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/agent"
    chunks = await reply(AGUIAgent(url), [{"role": "user", "content": "hi"}])
    assert notices(chunks) == [
        f"The agent could not reply: cannot connect to the AG-UI agent at {url} "
        "(connection refused). Is it running? Send your message again to retry."
    ]


async def test_regression_an_address_with_credentials_is_shown_without_them() -> None:
    """`--url https://user:token@host/agent` put the token in the greeting and every error."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    agent = AGUIAgent(f"http://bot:s3cret@127.0.0.1:{port}/agent")
    chunks = await reply(agent, [{"role": "user", "content": "hi"}])
    shown = f"http://bot:***@127.0.0.1:{port}/agent"
    assert shown in agent.greeting
    (notice,) = notices(chunks)
    assert shown in notice
    assert "s3cret" not in agent.greeting + notice


async def test_an_agent_silent_too_long_is_a_notice(server: AGUIServer) -> None:
    gate = threading.Event()
    server.turns.append(["Thinking", gate])
    try:
        chunks = await reply(
            AGUIAgent(server.url, timeout=0.5), [{"role": "user", "content": "hi"}]
        )
    finally:
        gate.set()
    assert said(chunks) == "Thinking"
    assert notices(chunks) == [
        f"The agent could not reply: the AG-UI agent at {server.url} sent nothing for 0.5 "
        "seconds. Send your message again to retry."
    ]


@pytest.mark.parametrize("url", ["localhost:8000/agent", "ftp://host/agent", "http://", ""])
def test_an_address_that_is_not_http_is_refused_at_once(url: str) -> None:
    with pytest.raises(ValueError, match="must start with http:// or https:// and name a host"):
        AGUIAgent(url)


async def test_server_sent_events_are_framed_as_the_standard_says() -> None:
    async def lines() -> AsyncIterator[str]:
        for line in [
            ": a comment",
            "event: message",
            "id: 7",
            "data: first",
            "data:second line",
            "",
            "",
            "retry: 100",
            "data: {}",
            "",
            "data: cut off by the end of the stream",
        ]:
            yield line

    assert [data async for data in server_sent_data(lines())] == ["first\nsecond line", "{}"]


async def test_in_the_chat_text_streams_and_the_call_becomes_buttons(
    user: User, server: AGUIServer
) -> None:
    gate = threading.Event()
    first, second = choices_call(DATABASE)
    server.turns.append(["Two databases fit.", first, gate, second])
    view, history = await open_chat(user, AGUIAgent(server.url))
    asyncio.get_running_loop().create_task(view.send("Set up a service"))
    try:
        # while the run is still under way
        await user.should_see("Two databases fit.", retries=WAIT)
        await user.should_see("preparing choices...", retries=WAIT)
        assert view.busy
    finally:
        gate.set()
    await user.should_see("Which database should the service use?", retries=WAIT)
    await user.should_not_see("preparing choices...", retries=WAIT)
    user.find("PostgreSQL").click()
    await user.should_see("(no reply queued)", retries=WAIT)
    await until(lambda: not view.busy, "the second run ends")
    replied = [item for item in view.log if isinstance(item, AssistantMessage)]
    assert replied[1].body.groups[0].state == BlockState("answered", "postgres")
    assert [message["role"] for message in history] == [
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
    ]


async def test_in_the_chat_an_error_is_an_alert_after_the_text_already_shown(
    user: User, server: AGUIServer
) -> None:
    server.turns.append(["Let me check. ", RuntimeError("the model is overloaded")])
    view, history = await open_chat(user, AGUIAgent(server.url))
    await view.send("hi")
    await user.should_see("The agent could not reply: the model is overloaded", retries=WAIT)
    items = list(view.log)
    assert isinstance(view.log, ChatLog)
    assert isinstance(items[-1], ErrorMessage)
    assert items[-1].props["role"] == "alert"
    assert isinstance(items[-2], AssistantMessage)
    assert history[-2] == {"role": "assistant", "content": "Let me check. "}
    assert view.composer.button.enabled


async def test_in_the_chat_new_chat_stops_a_run_under_way(user: User, server: AGUIServer) -> None:
    gate = threading.Event()
    server.turns.append(["Working on it", gate, "... done."])
    view, history = await open_chat(user, AGUIAgent(server.url))
    asyncio.get_running_loop().create_task(view.send("hi"))
    try:
        await user.should_see("Working on it", retries=WAIT)
        view.stop()
        await user.should_not_see("Working on it", retries=WAIT)
    finally:
        gate.set()
    await until(lambda: not view.busy, "the stopped reply ends")
    assert [message["role"] for message in history] == ["assistant", "user"]
