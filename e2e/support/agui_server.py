"""A real AG-UI agent for the tests, written by nobody here: pydantic-ai's own AG-UI adapter.

`AGUIServer` serves `POST /agent` with `pydantic_ai.ui.ag_ui.AGUIAdapter.dispatch_request` in a small
Starlette app, run by uvicorn in a thread on 127.0.0.1. The agent's model is a `FunctionModel` whose
`stream_function` plays the turns a test queued, one per run: text pieces and `DeltaToolCall`s (a
`present_choices` call, which the adapter treats as the frontend tool the chat declared, or a call
of one of the agent's own `tools`), an exception (which the adapter answers with `RUN_ERROR`),
`threading.Event`s that hold the stream until the test sets them, and functions of what the model
was given that say something about it (`tool_returns`: what the agent's tools returned). No real
model, no key. A tool declared `Tool(fn, requires_approval=True)` ends the run with an interrupt, as
pydantic-ai's adapter does, and the run that resumes it runs or denies the call.

It keeps what each run posted (`RunAgentInput` as JSON, and the headers) and what the model function
was given (its messages, and the names of the tools it was offered). A queued raw answer (a Starlette
response: a malformed stream, an HTML page) is sent instead of running the agent, as a misbehaving
server would.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import uvicorn
from ag_ui.core import (
    EventType,
    Interrupt,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageStartEvent,
)
from ag_ui.encoder import EventEncoder
from pydantic_ai import Agent, DeferredToolRequests, Tool
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

Step = str | DeltaToolCalls | Exception | threading.Event | Callable[[list[ModelMessage]], str]
Turn = list[Step]
GATE_TIMEOUT = 30  # seconds a gate holds the stream at most
STEP_DELAY = 0.02  # seconds between two steps, so that a reply really streams


def tool_returns(messages: list[ModelMessage]) -> str:
    """A step: what the agent's tools returned to the model in its last request, one a line."""
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    return "\n\n".join(
        f"{part.tool_name}: {part.content}"
        for part in request.parts
        if isinstance(part, ToolReturnPart)
    )


def tool_call(name: str, arguments: dict[str, Any], call_id: str, index: int = 0) -> Step:
    """A call of one of the agent's own tools, its arguments in one piece."""
    return {index: DeltaToolCall(name=name, json_args=json.dumps(arguments), tool_call_id=call_id)}


def branch_deleter(deleted: list[str]) -> Tool[None]:
    """The approval tests' tool: `delete_branch(name)`, declared `requires_approval=True`, keeping
    in `deleted` the names of the branches it deleted."""

    def delete_branch(name: str) -> str:
        """Delete the git branch `name`."""
        deleted.append(name)
        return f"deleted branch {name}"

    return Tool(delete_branch, requires_approval=True)


def deleting(*names: str) -> Turn:
    """A turn: the model says so and calls `delete_branch` once per name, in one response."""
    calls = [tool_call("delete_branch", {"name": n}, f"call_{n}", i) for i, n in enumerate(names)]
    return ["I'll clean up. ", *calls]


def choices_call(arguments: dict[str, Any], call_id: str = "call_choices_1") -> list[Step]:
    """A `present_choices` call whose arguments arrive in two pieces."""
    text = json.dumps(arguments)
    half = len(text) // 2
    return [
        {0: DeltaToolCall(name="present_choices", json_args=text[:half], tool_call_id=call_id)},
        {0: DeltaToolCall(json_args=text[half:])},
    ]


class AGUIServer:
    """Serves the queued `turns` in order (or the queued `raw_answers` first); its agent has
    `tools` of its own."""

    def __init__(self, tools: Sequence[Tool[None]] = ()) -> None:
        self.turns: list[Turn] = []
        self.raw_answers: list[Response] = []
        self.posted: list[dict[str, Any]] = []  # each run's RunAgentInput, as JSON
        self.headers: list[dict[str, str]] = []  # each request's headers, lower-case names
        self.model_messages: list[list[ModelMessage]] = []  # what the model function was given
        self.offered_tools: list[list[str]] = []  # the names of the tools it was offered
        self._port = 0
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._agent: Agent[None, Any] = Agent(
            FunctionModel(stream_function=self._stream),
            tools=tools,
            output_type=[str, DeferredToolRequests] if tools else str,
        )
        routes = [Route("/agent", self._endpoint, methods=["POST"])]
        self.app = Starlette(routes=routes)

    @property
    def url(self) -> str:
        assert self._port, "the server has never run"
        return f"http://127.0.0.1:{self._port}/agent"

    def clear(self) -> None:
        for record in (self.turns, self.raw_answers, self.posted, self.headers):
            record.clear()
        self.model_messages.clear()
        self.offered_tools.clear()

    def start(self) -> AGUIServer:
        """Listen (again: on the same port once it has had one) and serve in a thread."""
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self._port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the AG-UI test server did not start")
            time.sleep(0.02)
        self._port = self._server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        """Stop listening: a request now finds its connection refused."""
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=10)
            self._server = self._thread = None

    def __enter__(self) -> AGUIServer:
        return self.start()

    def __exit__(self, *exception: object) -> None:
        self.stop()

    async def _endpoint(self, request: Request) -> Response:
        self.posted.append(json.loads(await request.body()))
        self.headers.append(dict(request.headers))
        if self.raw_answers:
            return self.raw_answers.pop(0)
        return await AGUIAdapter.dispatch_request(request, agent=self._agent)

    async def _stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        self.model_messages.append(messages)
        self.offered_tools.append([tool.name for tool in info.function_tools])
        turn = self.turns.pop(0) if self.turns else ["(no reply queued)"]
        for step in turn:
            if isinstance(step, Exception):
                raise step
            if isinstance(step, threading.Event):
                await asyncio.to_thread(step.wait, GATE_TIMEOUT)
                continue
            await asyncio.sleep(STEP_DELAY)
            yield step(messages) if callable(step) else step


def event_stream(data: Sequence[str]) -> Response:
    """A raw answer: an event stream of exactly these `data:` payloads."""
    body = "".join(f"data: {payload}\n\n" for payload in data)
    return Response(body, media_type="text/event-stream")


def started_then_text(text: str) -> list[str]:
    """Valid events a misbehaving stream starts with: the run starts and says `text`."""
    events = [
        RunStartedEvent(type=EventType.RUN_STARTED, thread_id="t", run_id="r"),
        TextMessageStartEvent(type=EventType.TEXT_MESSAGE_START, message_id="m", role="assistant"),
        TextMessageContentEvent(type=EventType.TEXT_MESSAGE_CONTENT, message_id="m", delta=text),
    ]
    return [_encoded(event) for event in events]


def interrupted_run(text: str, interrupts: list[dict[str, Any]]) -> Response:
    """A raw answer, as an agent other than pydantic-ai's may send one: the run says `text`, then
    ends waiting for answers to `interrupts` (AG-UI's own shape, camelCase keys)."""
    outcome = RunFinishedInterruptOutcome(
        interrupts=[Interrupt.model_validate(interrupt) for interrupt in interrupts]
    )
    finished = RunFinishedEvent(thread_id="t", run_id="r", outcome=outcome)
    return event_stream([*started_then_text(text), _encoded(finished)])


def finished_run(text: str) -> Response:
    """A raw answer: the run says `text` and finishes."""
    return event_stream(
        [*started_then_text(text), _encoded(RunFinishedEvent(thread_id="t", run_id="r"))]
    )


def refused_run(message: str) -> Response:
    """A raw answer: the run is refused with `message` (`RUN_ERROR`), as a stale resume is."""
    started = RunStartedEvent(type=EventType.RUN_STARTED, thread_id="t", run_id="r")
    return event_stream([_encoded(started), _encoded(RunErrorEvent(message=message))])


def _encoded(event: Any) -> str:
    return EventEncoder().encode(event).removeprefix("data: ").strip()


def dropped_stream(data: Sequence[str]) -> Response:
    """A raw answer: an event stream of these payloads whose connection then breaks off."""

    async def events() -> AsyncIterator[str]:
        for payload in data:
            yield f"data: {payload}\n\n"
        raise ConnectionAbortedError("the test server drops the connection")

    return StreamingResponse(events(), media_type="text/event-stream")


def html_page() -> Response:
    """A raw answer: what a web server's default page looks like at a wrong address."""
    return HTMLResponse(
        "<!doctype html><html><body><h1>Welcome!</h1><p>It works.</p></body></html>"
    )
