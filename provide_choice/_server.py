"""The MCP server: `provide_choice` and `present_choices`, over stdio or streamable HTTP.

Both tools take their arguments raw and validate them themselves, so an agent gets one error result
listing every problem in its own words (unknown fields included: the SDK would silently drop them).
The server only imports what start-up needs; a transport imports its UI when it first asks.
"""

from __future__ import annotations

import json
import math
import os
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict

from present_choices import TOOL_DESCRIPTION as PRESENT_CHOICES_DESCRIPTION
from present_choices import TOOL_NAME as PRESENT_CHOICES_NAME
from present_choices import ChoicesError, parameters_schema, parse_prompt, present_choices
from provide_choice._bridge import HOST, Bridge, loopback_listener
from provide_choice._caller import McpCaller
from provide_choice._elicitation import ElicitationTransport
from provide_choice._handoff import handoff_transports
from provide_choice._portal import WebTransport
from provide_choice._recorder import start_recorder
from provide_choice._request import SessionPoll, parse_call, tool_input_schema
from provide_choice._response import (
    Cancelled,
    Ending,
    Outcome,
    PendingLaunch,
    ProvideChoiceResponse,
    StillOpen,
    TimedOut,
    normalize,
)
from provide_choice._sessions import PendingQuestion, QuestionRegistry
from provide_choice._settings import load_settings
from provide_choice._terminal_transport import TerminalTransport
from provide_choice._transport import (
    AgentClient,
    InputNeeded,
    Interaction,
    Launch,
    Resumable,
    Transport,
    TransportError,
    Transports,
    choose_transport,
)
from provide_choice._transport_kinds import TransportName, candidates

SERVER_NAME = "provide-choice"
TOOL_NAME = "provide_choice"
HEARTBEAT_SECONDS = 10.0
PROBLEM_LIMIT = 20
GRACEFUL_STOP_SECONDS = 2.0
MAX_WAIT_SECONDS = 50.0
"""How long one call waits for the person before it returns `pending`: under the 60 s that the
TypeScript SDK, the MCP Inspector and several desktop clients allow a tool call."""

DECISION_POLICY = (
    "Call provide_choice when more than two viable paths exist, before a destructive action "
    "(deleting, overwriting, force-pushing, migrating data), or when required configuration is "
    "missing. Put the task context and the reason a choice is needed in `prompt`. Never guess a "
    "default instead of asking."
)

INSTRUCTIONS = (
    "This server lets you ask the person you work for to decide, and get their answer as data. "
    + DECISION_POLICY
    + " Use present_choices instead for a quick question shown as buttons in a chat that renders "
    "```choices blocks."
)

TOOL_DESCRIPTION = (
    "Ask the person a structured question (in your MCP client's own dialog where it has one, a "
    "terminal, or the browser) and wait for the answer. "
    + DECISION_POLICY
    + "\n\nselection_mode: single (pick one of 2+ options), multi (pick several of 2+ options), "
    "text_input (type an answer; no options), hybrid (pick from 1+ options or type an own answer; "
    "typing waives min_selections). Give every option an id and a label; mark at least one "
    "recommended. The request is validated in full before anything is shown; an error lists every "
    "problem. allow_cancel is accepted and ignored: the person can always cancel."
    "\n\nReturns {action_status, selection}. action_status: selected, custom_input, cancelled, "
    "timeout, pending or pending_terminal_launch. selection.selected_ids are option ids in option "
    "order; selection.summary is one line describing the outcome; selection.url is the address "
    "of the page showing the question, when there is one. After cancelled or timeout do not act "
    "as if the person chose: a timeout may return the defaults (or nothing, as the person "
    "configured) and its summary says so."
    "\n\nA call waits at most about 50 s (the server's --max-wait), so that clients with a 60 s "
    "tool timeout never cut it off (a question in the client's own dialog is not cut short: the "
    "client waits for its dialog). pending means the question is still open and untouched: call "
    'provide_choice again with only {"session_id": selection.session_id} to keep waiting; '
    "repeat until another status comes back. The question still ends at its own deadline."
    "\n\nAfter pending_terminal_launch, run selection.summary (a shell command) in an interactive "
    "terminal (your run-in-terminal tool) so the person answers there, then call provide_choice "
    "again with only session_id, as after pending. Sessions are single-use: once its answer is "
    "fetched, or long after it ended, a session is gone, and a retry needs a new call without "
    "session_id."
    "\n\nWhile a call waits it sends progress notifications with the time left (timeout_seconds, "
    "default 300) and, for the browser, the page's address: if the person says no page appeared, "
    "give them selection.url."
)

UNAVAILABLE: dict[TransportName, str] = {
    "web": (
        "this server was set up without the web portal, and has no terminal (stdin and stdout "
        "must be one). `provide-choice serve` asks in the browser when it has no terminal."
    ),
    "terminal_handoff": (
        "transport 'terminal' needs a terminal, and this server has none (it runs without a "
        "terminal window) and no terminal hand-off set up. Ask the person to run "
        "`provide-choice serve --http PORT` in a terminal window and connect to it."
    ),
}
ONLY_TOOLS = (
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
)
"""Request handlers the SDK's high-level server always registers. This server has no prompts and
no resources, and capabilities derive from the handlers, so they go: a client then sees only what
is there."""


class _RawArguments(ArgModelBase):
    """Takes the arguments as they came, so the tool reports every problem in them itself."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def create_server(
    transports: Transports | None = None,
    *,
    heartbeat_seconds: float = HEARTBEAT_SECONDS,
    questions: QuestionRegistry | None = None,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
) -> MCPServer:
    """The MCP server. `transports` maps a transport name to what shows the question: leave
    "terminal" out when this process has no terminal. Progress is reported every
    `heartbeat_seconds` while a question waits. A call waits at most `max_wait_seconds` (0: until
    the question's deadline), then returns `pending`; `questions` holds the open questions a
    `session_id` call waits on again."""
    # The client's own dialog needs nothing set up: it is there for every client that has one.
    every = {"elicitation": ElicitationTransport(), **(transports or {})}
    provide_choice = _ProvideChoice(every, heartbeat_seconds, questions, max_wait_seconds)
    server = MCPServer(
        SERVER_NAME,
        version=package_version(),
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=[
            _raw_tool(
                provide_choice,
                name=TOOL_NAME,
                description=TOOL_DESCRIPTION,
                parameters=tool_input_schema(),
                output_model=ProvideChoiceResponse,
                takes_context=True,
                annotations=ToolAnnotations(title="Ask the person to choose", read_only_hint=True),
            ),
            _raw_tool(
                _present_choices,
                name=PRESENT_CHOICES_NAME,
                description=PRESENT_CHOICES_DESCRIPTION,
                parameters=parameters_schema(),
                annotations=ToolAnnotations(
                    title="Show choices as chat buttons", read_only_hint=True
                ),
            ),
        ],
        subscriptions=False,
    )
    for method in ONLY_TOOLS:
        server._lowlevel_server._request_handlers.pop(method, None)
    return server


def package_version() -> str:
    """The installed agent-choices version (the `serverInfo.version` clients show)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("agent-choices")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


class _ProvideChoice:
    """The `provide_choice` tool: validate, choose a transport, show, wait (bounded), normalize."""

    def __init__(
        self,
        transports: dict[TransportName, Transport],
        heartbeat_seconds: float,
        questions: QuestionRegistry | None,
        max_wait_seconds: float,
    ) -> None:
        self.transports = transports
        self.heartbeat_seconds = heartbeat_seconds
        self.questions = QuestionRegistry() if questions is None else questions
        self.max_wait_seconds = max_wait_seconds or math.inf

    async def __call__(
        self, arguments: dict[str, Any], context: Context
    ) -> CallToolResult | InputRequiredResult:
        caller = McpCaller(context)
        if context.request_state is not None:  # a retried call, with the client's answers
            return await self._resume(context, caller)
        try:
            call = parse_call(arguments)
        except ChoicesError as error:
            return _error_result(
                f"Invalid provide_choice request; nothing was shown to the person. "
                f"Fix {'this problem' if len(error.problems) == 1 else 'these problems'} and call again:",
                error.problems,
            )
        if isinstance(call, SessionPoll):
            question = self.questions.get(call.session_id)
            if question is None:
                return _error_result(_no_session(call.session_id))
            return await self._wait(question, context)
        settings = load_settings()
        choice = choose_transport(
            call.transport, settings.transport, self.transports.__contains__, caller.features
        )
        if choice is None:
            wished = candidates(call.transport, settings.transport)
            return _error_result(
                f"provide_choice cannot ask the person here: {UNAVAILABLE[wished[-1]]}"
            )
        interaction = Interaction.start(
            call, settings, note=choice.note, client=_client_of(context)
        )
        question = self.questions.create(interaction, choice.transport)
        try:
            launch = await self.transports[choice.transport].show(question, caller)
        except BaseException as error:
            self.questions.pop(question.id)
            question.finish(Cancelled(by="agent"))
            if not isinstance(error, TransportError):
                raise
            return _error_result(f"provide_choice cannot ask the person here: {error}")
        return await self._go_on(question, launch, context)

    async def _go_on(
        self, question: PendingQuestion, launch: Launch | None, context: Context
    ) -> CallToolResult | InputRequiredResult:
        """After a transport showed (or resumed) the question: what the call returns."""
        if isinstance(launch, InputNeeded):
            state = {
                **launch.state,
                "question": question.id,
                "deadline": time.time() + question.seconds_left(),
            }
            # The SDK seals the state: the client echoes it back, but cannot read or alter it.
            return InputRequiredResult(
                input_requests=dict(launch.requests), request_state=json.dumps(state)
            )
        if isinstance(launch, PendingLaunch):
            interaction = question.interaction
            return _response(
                normalize(interaction.request, launch, question.transport, note=interaction.note)
            )
        return await self._wait(question, context)

    async def _resume(
        self, context: Context, caller: McpCaller
    ) -> CallToolResult | InputRequiredResult:
        """A call retried with the answers to its `input_required` round (2026-07-28): go on with
        the question its state names. A question is answered once, and never past its deadline,
        whatever a client sends."""
        try:
            state = json.loads(context.request_state or "")
            question = self.questions.get(str(state["question"]))
            deadline = float(state["deadline"])
        except (ValueError, TypeError, KeyError):
            return _error_result("provide_choice cannot read this call's request state.")
        if question is None:
            return _error_result(_no_session(str(state["question"])))
        transport = self.transports[question.transport]
        if question.outcome is None and time.time() >= deadline:
            question.finish(TimedOut(action=question.interaction.settings.timeout_action))
        if question.outcome is not None or not isinstance(transport, Resumable):
            return await self._wait(question, context)
        responses = context.input_responses or {}
        launch = await transport.resume(question, caller, responses, state)
        return await self._go_on(question, launch, context)

    async def _wait(self, question: PendingQuestion, context: Context) -> CallToolResult:
        """Wait for the question to end, at most `max_wait_seconds` (unless the transport is not
        to be cut short): then it is still open and the agent hears `pending` with the id to call
        back with. The final outcome consumes the question (sessions are single-use)."""
        interaction, transport = question.interaction, self.transports[question.transport]
        max_wait = self.max_wait_seconds if transport.bounded_wait else math.inf
        try:
            with anyio.move_on_after(max_wait):
                outcome: Outcome = await self._heard(question, context)
        except anyio.get_cancelled_exc_class():
            # The client cancelled the call or gave up: the agent cancelled the question, unless
            # it waits for a terminal the agent opened (a retried poll still gets that answer).
            if transport.cancelled_with_the_call:
                question.finish(Cancelled(by="agent"))
            raise
        if question.outcome is None:
            outcome = StillOpen(session_id=question.id, seconds_left=question.seconds_left())
        elif self.questions.pop(question.id) is None:  # a concurrent poll consumed it first
            return _error_result(_no_session(question.id))
        response = normalize(
            interaction.request,
            outcome,
            question.transport,
            url=question.url,
            note=interaction.note,
        )
        return _response(response)

    async def _heard(self, question: PendingQuestion, context: Context) -> Ending:
        """The outcome, reporting the time left as progress meanwhile, and at once when the
        question's address or deadline changes."""

        async def heartbeat() -> None:
            while True:
                question.changed.clear()
                left = question.seconds_left()
                # Whole seconds for the total (the timeout as the agent set it, or as the person
                # extended it); elapsed time as progress, which only ever grows.
                total = round(question.interaction.deadline - question.started)
                elapsed = min(round(time.monotonic() - question.started, 1), total)
                where = f" at {question.url}" if question.url else ""
                await context.report_progress(
                    elapsed,
                    total,
                    f"Waiting for the person to answer{where}: {left:.0f} s left",
                )
                with anyio.move_on_after(self.heartbeat_seconds):
                    await question.changed.wait()

        async with anyio.create_task_group() as group:
            group.start_soon(heartbeat)
            outcome = await question.wait()
            group.cancel_scope.cancel()
        return outcome


def _client_of(context: Context) -> AgentClient | None:
    """The MCP client that made this call, as it names itself (none may be given)."""
    params = context.request_context.session.client_params
    if params is None:
        return None
    return AgentClient(params.client_info.name, params.client_info.version)


async def _present_choices(arguments: dict[str, Any]) -> CallToolResult:
    """`present_choices.present_choices`, with every problem reported as an error result."""
    try:
        prompt = parse_prompt(arguments)
    except ChoicesError as error:
        return _error_result("Invalid present_choices arguments:", error.problems)
    text = present_choices(prompt.question, prompt.options, prompt.context)
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _raw_tool(
    function: Callable[..., Awaitable[CallToolResult | InputRequiredResult]],
    *,
    name: str,
    description: str,
    parameters: dict[str, Any],
    annotations: ToolAnnotations,
    output_model: type[BaseModel] | None = None,
    takes_context: bool = False,
) -> Tool:
    """A tool that receives its raw arguments (and the context when `takes_context`) and publishes
    a hand-written input schema; with `output_model`, successful results are checked against it."""
    return Tool(
        fn=function,
        name=name,
        description=description,
        parameters=parameters,
        fn_metadata=FuncMetadata(arg_model=_RawArguments, output_model=output_model),
        is_async=True,
        context_kwarg="context" if takes_context else None,
        annotations=annotations,
    )


def _response(response: ProvideChoiceResponse) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=response.model_dump_json())],
        structured_content=response.model_dump(mode="json"),
    )


def _no_session(session_id: str) -> str:
    return (
        f"session_id {session_id[:80]!r} is not an open question of this server: sessions are "
        "single-use, so its answer was already fetched, it ended long ago, or its server "
        "restarted. Call provide_choice again without session_id to ask the person anew."
    )


def _error_result(message: str, problems: list[str] | None = None) -> CallToolResult:
    """An error the agent reads: the first `PROBLEM_LIMIT` problems, and how many more there are
    (ten thousand broken options must not make a megabyte of text)."""
    problems = problems or []
    lines = [message, *(f"- {problem}" for problem in problems[:PROBLEM_LIMIT])]
    if len(problems) > PROBLEM_LIMIT:
        lines.append(f"- and {len(problems) - PROBLEM_LIMIT:,} more problems of the same kinds")
    text = "\n".join(lines)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def terminal_transports() -> Transports:
    """The in-process terminal, when this process has one (stdin and stdout both a TTY)."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return {"terminal": TerminalTransport(sys.stdout)}
    return {}


def bridge_transports(
    bridge: Bridge, questions: QuestionRegistry, *, open_browser: bool
) -> Transports:
    """The transports that show questions through the bridge: the terminal hand-off and the web
    portal (which opens its page in the browser unless `open_browser` is false)."""
    web = WebTransport(bridge, questions, open_browser=open_browser)
    return {**handoff_transports(bridge, questions), "web": web}


def serve_stdio(
    *, bridge_port: int = 0, open_browser: bool = True, max_wait_seconds: float = MAX_WAIT_SECONDS
) -> None:
    """Serve on stdin/stdout. The terminal there belongs to the MCP client, so questions open in
    the browser, or for the terminal are handed off to one the agent opens; the bridge for both
    uses `bridge_port`."""
    bridge, questions = Bridge(port=bridge_port), QuestionRegistry(recorder=start_recorder())
    transports = bridge_transports(bridge, questions, open_browser=open_browser)
    server = create_server(transports, questions=questions, max_wait_seconds=max_wait_seconds)
    try:
        anyio.run(_serve_stdio, server, bridge)
    except BaseException as error:
        if not _client_went_away(error):
            raise
        # Nothing reads our stdout any more: send what is left in its buffer nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        _note("the MCP client went away (its end of stdio closed); stopping")


async def _serve_stdio(server: MCPServer, bridge: Bridge) -> None:
    async with anyio.create_task_group() as group:
        group.start_soon(_exit_on_signal, bridge)
        await _until_stopped(server.run_stdio_async, bridge)
        group.cancel_scope.cancel()


async def _exit_on_signal(bridge: Bridge) -> None:
    """Ctrl-C (SIGINT) or SIGTERM: stop the bridge, say so, exit with 128 + the signal number.

    Exiting at once is deliberate: the SDK reads stdin in a worker thread that no cancellation
    can interrupt, so the usual KeyboardInterrupt leaves the server hanging until stdin closes.
    """
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async for number in signals:
            with anyio.move_on_after(GRACEFUL_STOP_SECONDS, shield=True):
                await bridge.aclose()
            _note(f"stopped ({'Ctrl-C' if number == signal.SIGINT else 'SIGTERM'})")
            os._exit(128 + number)


def _client_went_away(error: BaseException) -> bool:
    """Whether `error` is only the MCP client's end of stdio closing under a write."""
    gone = (BrokenPipeError, ConnectionResetError)
    if isinstance(error, BaseExceptionGroup):
        _matched, rest = error.split(gone)
        return rest is None
    return isinstance(error, gone)


def _note(message: str) -> None:
    print(f"provide-choice: {message}", file=sys.stderr, flush=True)


def serve_http(
    port: int,
    *,
    handoff: bool = False,
    bridge_port: int = 0,
    open_browser: bool = True,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
) -> None:
    """Serve streamable HTTP on 127.0.0.1 (port 0 picks a free one); questions appear in this
    process's terminal, or with `handoff` in a terminal the agent opens. Raises `OSError` when the
    port cannot be bound."""
    listener = loopback_listener(port)
    terminal = {} if handoff else terminal_transports()
    if handoff:
        where = "questions for the terminal are handed off to one the agent opens (--handoff)"
    elif terminal:
        where = "questions appear in this terminal"
    else:
        where = "no terminal here (stdin and stdout must be one), so questions open in the browser"
    address = f"http://{HOST}:{listener.getsockname()[1]}/mcp"
    print(f"provide-choice: MCP server at {address}; {where}.", file=sys.stderr, flush=True)
    bridge, questions = Bridge(port=bridge_port), QuestionRegistry(recorder=start_recorder())
    transports = {**terminal, **bridge_transports(bridge, questions, open_browser=open_browser)}
    server = create_server(transports, questions=questions, max_wait_seconds=max_wait_seconds)
    anyio.run(_until_stopped, partial(_serve_http, server, listener), bridge)


async def _until_stopped(serve: Callable[[], Awaitable[None]], bridge: Bridge) -> None:
    """Serve; when the MCP server stops, stop the bridge with it."""
    try:
        await serve()
    finally:
        await bridge.aclose()


async def _serve_http(server: MCPServer, listener: socket.socket) -> None:
    import uvicorn

    config = uvicorn.Config(
        server.streamable_http_app(host=HOST),
        # The terminal shows questions: no access log on stdout, only warnings on stderr.
        log_config=None,
        log_level="warning",
    )
    # The socket is already listening, so clients may connect as soon as the address is printed.
    await uvicorn.Server(config).serve(sockets=[listener])
