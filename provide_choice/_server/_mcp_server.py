"""The MCP server: `provide_choice` and `present_choices`, with the server's instructions.

Both tools take their arguments raw and validate them themselves, so an agent gets one error result
listing every problem in its own words (unknown fields included: the SDK would silently drop them).
The server only imports what start-up needs; a transport imports its UI when it first asks, or
sooner: once the server has answered `tools/list`, in the background (`_warming`).
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from present_choices import TOOL_DESCRIPTION as PRESENT_CHOICES_DESCRIPTION
from present_choices import TOOL_NAME as PRESENT_CHOICES_NAME
from present_choices import ChoicesError, parameters_schema, parse_prompt, present_choices
from provide_choice._contract._response import ProvideChoiceResponse
from provide_choice._question import QuestionRegistry
from provide_choice._server._provide_choice_tool import (
    HEARTBEAT_SECONDS,
    MAX_WAIT_SECONDS,
    ProvideChoiceTool,
    error_result,
)
from provide_choice._server._sdk import serve_no_prompts
from provide_choice._server._tool_schemas import published
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._server._warming import WarmAfterToolsList
from provide_choice._transports._base import AddsToServer, ServerParts, Transports, TransportSetup
from provide_choice._transports._raw_tool import raw_tool
from provide_choice._transports._registry import build_transports
from provide_choice._version import package_version

SERVER_NAME = "provide-choice"
TOOL_NAME = "provide_choice"

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
    "Ask the person a structured question (in the conversation where your MCP client draws MCP "
    "Apps, in its own dialog where it has one, a terminal, or the browser) and wait for the "
    "answer. "
    + DECISION_POLICY
    + "\n\nselection_mode: single (pick one of 2+ options), multi (pick several of 2+ options), "
    "text_input (type an answer; no options), hybrid (pick from 1+ options or type an own answer; "
    "typing waives min_selections). Give every option an id and a label; mark at least one "
    "recommended. The request is validated in full before anything is shown; an error lists every "
    "problem. allow_cancel is accepted and ignored: the person can always cancel."
    "\n\nReturns {action_status, answered_by, selection}. action_status: selected, custom_input, "
    "cancelled, timeout, unattended, pending or pending_terminal_launch. selection.selected_ids "
    "are option ids in option order; selection.summary is one line describing the outcome; "
    "selection.url is the address of the page showing the question, when there is one. After "
    "cancelled or timeout do not act as if the person chose: a timeout may return the defaults "
    "(or nothing, as the person configured) and its summary says so."
    "\n\nunattended comes back at once when nobody can be asked (the server runs unattended, as "
    "in CI, or the person is away): nobody chose; go on only with what the defaults allow, or "
    "stop and say what needs a person. selection.selected_ids then holds the defaults, or "
    "nothing, as the person configured. answered_by says who answered: person, answers_file (a "
    "rule the person wrote in advance; the summary names the file) or nobody (unattended, away, "
    "a timeout, or not answered yet)."
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


def create_server(
    transports: Transports | None = None,
    *,
    setup: TransportSetup | None = None,
    heartbeat_seconds: float = HEARTBEAT_SECONDS,
    max_wait_seconds: float = MAX_WAIT_SECONDS,
    request_state_key: bytes | None = None,
    policy: AnswerPolicy | None = None,
    built: Transports | None = None,
) -> MCPServer:
    """The MCP server. Its transports are the registered ones built for `setup` (without one:
    those that need nothing set up, such as the client's own dialog), plus or instead of those,
    `transports` by name. Progress is reported every `heartbeat_seconds` while a question waits.
    A call waits at most `max_wait_seconds` (0: until the question's deadline), then returns
    `pending`; `setup.questions` holds the open questions a `session_id` call waits on again.
    `request_state_key` seals the state of a call retried with the client's answers (2026-07-28)
    the same way on every instance sharing the questions; without it, a key of this process.
    `policy` says who answers before the person is asked (an answers file; nobody, when it runs
    unattended); without one, the person is always asked. `built`: the transports already built
    for `setup` (a server that says where its questions appear builds them first)."""
    setup = setup or TransportSetup(QuestionRegistry())
    every = {**(build_transports(setup) if built is None else built), **(transports or {})}
    provide_choice = ProvideChoiceTool(
        every, heartbeat_seconds, setup.questions, max_wait_seconds, policy or AnswerPolicy()
    )
    schemas = published()
    parts = [
        transport.server_parts()
        for transport in every.values()
        if isinstance(transport, AddsToServer)
    ]
    server = MCPServer(
        SERVER_NAME,
        version=package_version(),
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=[
            raw_tool(
                provide_choice,
                name=TOOL_NAME,
                description=TOOL_DESCRIPTION,
                parameters=schemas["input"],
                output_model=ProvideChoiceResponse,
                output_schema=schemas["output"],
                takes_context=True,
                annotations=ToolAnnotations(title="Ask the person to choose", read_only_hint=True),
                meta=_tool_meta(TOOL_NAME, parts),
            ),
            raw_tool(
                _present_choices,
                name=PRESENT_CHOICES_NAME,
                description=PRESENT_CHOICES_DESCRIPTION,
                parameters=parameters_schema(),
                annotations=ToolAnnotations(
                    title="Show choices as chat buttons", read_only_hint=True
                ),
                meta=_tool_meta(PRESENT_CHOICES_NAME, parts),
            ),
            *(tool for part in parts for tool in part.tools),
        ],
        subscriptions=False,
        request_state_security=(
            None if request_state_key is None else RequestStateSecurity(keys=[request_state_key])
        ),
        extensions=[extension for part in parts for extension in part.extensions],
        middleware=[
            *(middleware for part in parts for middleware in part.middleware),
            WarmAfterToolsList(every.values()),
        ],
    )
    serve_no_prompts(server)  # a client sees only what is there: tools, and their views
    return server


async def _present_choices(arguments: dict[str, Any]) -> CallToolResult:
    """`present_choices.present_choices`, with every problem reported as an error result."""
    try:
        prompt = parse_prompt(arguments)
    except ChoicesError as error:
        return error_result("Invalid present_choices arguments:", error.problems)
    text = present_choices(prompt.question, prompt.options, prompt.context)
    return CallToolResult(content=[TextContent(type="text", text=text)])


def _tool_meta(tool: str, parts: list[ServerParts]) -> dict[str, Any] | None:
    """The `_meta` the transports give one of the server's own tools (the app: its view)."""
    meta: dict[str, Any] = {}
    for part in parts:
        meta |= part.tool_meta.get(tool, {})
    return meta or None
