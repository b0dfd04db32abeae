"""The `provide_choice` tool: validate, choose a transport, show, wait (bounded), normalize.

One call asks a question and waits for it at most `serve --max-wait` seconds (then `pending`); a call
with only `session_id` waits again; a call retried with `input_required` answers (2026-07-28) goes on
from the sealed state. Every ending goes through `normalize`, whatever the transport.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

import anyio
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, InputRequiredResult, TextContent

from present_choices import ChoicesError
from provide_choice._contract._answers_file import RuleMisfit
from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._batch_response import respond
from provide_choice._contract._call import SessionPoll, parse_call
from provide_choice._contract._outcomes import (
    Cancelled,
    PendingLaunch,
    Reply,
    StillOpen,
    TimedOut,
)
from provide_choice._contract._response import ProvideChoiceResponse, unread
from provide_choice._question import (
    AgentClient,
    Interaction,
    PendingQuestion,
    QuestionRegistry,
    StoreUnavailable,
    TransportError,
)
from provide_choice._server._caller import McpCaller
from provide_choice._server._progress import wait_with_progress
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._transports._base import InputNeeded, Launch, Resumable, Transports
from provide_choice._transports._registry import (
    asks_here,
    batch_refusal,
    batch_stand_in,
    choose_transport,
    why_unavailable,
)

HEARTBEAT_SECONDS = 10.0
STORE_RETRY_SECONDS = 1.0
"""How often a poll tries again to read a question while the shared store cannot be reached."""
PROBLEM_LIMIT = 20
MAX_WAIT_SECONDS = 50.0
"""How long one call waits for the person before it returns `pending`: under the 60 s that the
TypeScript SDK, the MCP Inspector and several desktop clients allow a tool call."""


class ProvideChoiceTool:
    """The `provide_choice` tool: validate, choose a transport, show, wait (bounded), normalize."""

    def __init__(
        self,
        transports: Transports,
        heartbeat_seconds: float,
        questions: QuestionRegistry,
        max_wait_seconds: float,
        policy: AnswerPolicy,
    ) -> None:
        self.transports = transports
        self.heartbeat_seconds = heartbeat_seconds
        self.questions = questions
        self.max_wait_seconds = max_wait_seconds or math.inf
        self.policy = policy

    async def __call__(
        self, arguments: dict[str, Any], context: Context
    ) -> CallToolResult | InputRequiredResult:
        caller = McpCaller(context)
        if context.request_state is not None:  # a retried call, with the client's answers
            return await self._resume(context, caller)
        try:
            call = parse_call(arguments)
        except ChoicesError as error:
            return error_result(
                f"Invalid provide_choice request; nothing was shown to the person. "
                f"Fix {'this problem' if len(error.problems) == 1 else 'these problems'} and call again:",
                error.problems,
            )
        if isinstance(call, SessionPoll):
            return await self._poll(call.session_id, context)
        try:
            return await self._ask(call, caller, context)
        except StoreUnavailable as away:
            return error_result(
                f"provide_choice cannot ask the person now: {away}. Nothing was asked; call "
                "again in a moment."
            )

    async def _ask(
        self, call: Asked, caller: McpCaller, context: Context
    ) -> CallToolResult | InputRequiredResult:
        """Ask anew: answer at once when nobody is to be asked (the answers file, unattended,
        away), else choose where, keep the question (with a shared store, there first), show."""
        settings = await self.questions.person_settings()
        try:
            at_once = self.policy.answer_at_once(call, settings)
        except RuleMisfit as misfit:
            return error_result(str(misfit))
        if at_once is not None:  # shown nowhere: recorded, and answered now
            interaction = Interaction.start(call, settings, client=_client_of(context))
            self.questions.settle(interaction, at_once)
            return tool_result(respond(call, at_once, None))
        # A transport that asks only when named (the terminal of one of several instances)
        # is left out of `auto`.
        named = [name for name in (call.transport, settings.transport) if name is not None]
        has = asks_here(self.transports, named)
        choice = choose_transport(call.transport, settings.transport, has, caller.features)
        if choice is None:
            unavailable = why_unavailable(call.transport, settings.transport)
            return error_result(f"provide_choice cannot ask the person here: {unavailable}")
        refusal = batch_refusal(choice.transport) if isinstance(call, BatchRequest) else None
        if refusal is not None and call.transport is None:
            # Nobody named that surface for this batch: it goes where batches are shown.
            choice = batch_stand_in(choice.transport, has, caller.features) or choice
            refusal = batch_refusal(choice.transport)
        if refusal is not None:
            return error_result(f"provide_choice cannot ask the person here: {refusal}")
        interaction = Interaction.start(
            call, settings, note=choice.note, client=_client_of(context)
        )
        question = self.questions.create(interaction, choice.transport)
        try:
            await question.stored()  # every instance finds it before anyone is shown it
        except StoreUnavailable:
            self.questions.forget(question)
            question.end(Cancelled(by="agent"))
            raise
        try:
            launch = await self.transports[choice.transport].show(question, caller)
        except BaseException as error:
            self.questions.pop(question.id)
            question.finish(Cancelled(by="agent"))
            if not isinstance(error, TransportError):
                raise
            return error_result(f"provide_choice cannot ask the person here: {error}")
        if not isinstance(launch, PendingLaunch):  # a hand-off is shown once its terminal claims it
            question.mark_shown()
        return await self._reply_after_show(question, launch, context)

    async def _reply_after_show(
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
            return tool_result(
                respond(interaction.asked, launch, question.transport, note=interaction.note)
            )
        return await self._wait(question, context)

    async def _poll(self, session_id: str, context: Context) -> CallToolResult:
        """Wait again on an open question, held here or, with a shared store, by any instance.
        While the store cannot be read, it is tried again for as long as a call may wait, then
        the call returns `pending`, saying why."""
        patience = (
            self.max_wait_seconds if math.isfinite(self.max_wait_seconds) else MAX_WAIT_SECONDS
        )
        question, problem = None, None
        with anyio.move_on_after(patience):
            while True:
                try:
                    question, problem = await self.questions.fetch(session_id), None
                    break
                except StoreUnavailable as away:
                    problem = str(away)
                    await anyio.sleep(STORE_RETRY_SECONDS)
        if problem is not None:
            still_open = StillOpen(session_id=session_id, seconds_left=None, problem=problem)
            return tool_result(unread(still_open))
        if question is None:
            return error_result(_no_session(session_id))
        return await self._wait(question, context)

    async def _resume(
        self, context: Context, caller: McpCaller
    ) -> CallToolResult | InputRequiredResult:
        """A call retried with the answers to its `input_required` round (2026-07-28): go on with
        the question its state names. A question is answered once, and never past its deadline,
        whatever a client sends."""
        try:
            state = json.loads(context.request_state or "")
            question = await self.questions.fetch(str(state["question"]))
            deadline = float(state["deadline"])
        except (ValueError, TypeError, KeyError):
            return error_result("provide_choice cannot read this call's request state.")
        except StoreUnavailable as away:
            return error_result(f"provide_choice cannot go on with this call now: {away}.")
        if question is None:
            return error_result(_no_session(str(state["question"])))
        transport = self.transports.get(question.transport, ELSEWHERE)
        if question.outcome is None and time.time() >= deadline:
            question.finish(TimedOut(action=question.interaction.settings.timeout_action))
        if question.outcome is not None or not isinstance(transport, Resumable):
            return await self._wait(question, context)
        responses = context.input_responses or {}
        launch = await transport.resume(question, caller, responses, state)
        return await self._reply_after_show(question, launch, context)

    async def _wait(self, question: PendingQuestion, context: Context) -> CallToolResult:
        """Wait for the question to end, at most `max_wait_seconds` (unless the transport is not
        to be cut short): then it is still open and the agent hears `pending` with the id to call
        back with. The final outcome consumes the question (sessions are single-use)."""
        interaction = question.interaction
        transport = self.transports.get(question.transport, ELSEWHERE)
        max_wait = self.max_wait_seconds if transport.bounded_wait else math.inf
        try:
            with anyio.move_on_after(max_wait):
                await wait_with_progress(
                    question,
                    context,
                    self.heartbeat_seconds,
                    until_store_away=transport.bounded_wait,
                )
        except anyio.get_cancelled_exc_class():
            # The client cancelled the call or gave up: the agent cancelled the question, unless
            # it waits for a terminal the agent opened (a retried poll still gets that answer).
            if transport.cancelled_with_the_call:
                question.finish(Cancelled(by="agent"))
            raise
        problem = question.store_problem
        outcome: Reply
        if question.outcome is not None:
            outcome = question.outcome
            try:
                if not await self.questions.consume(question):  # another poll fetched it first
                    return error_result(_no_session(question.id))
            except StoreUnavailable as away:  # fetched only once the store can say it was
                outcome = StillOpen(session_id=question.id, seconds_left=None, problem=str(away))
        else:
            seconds_left = question.seconds_left()
            outcome = StillOpen(session_id=question.id, seconds_left=seconds_left, problem=problem)
        response = respond(
            interaction.asked,
            outcome,
            question.transport,
            url=question.url,
            note=interaction.note,
        )
        return tool_result(response)


class _Elsewhere:
    """How a call waits on a question shown by a transport this instance does not have (another
    instance's terminal, a plug-in installed there only): at most `--max-wait`, and cancelled
    with the call, as most surfaces."""

    cancelled_with_the_call = True
    bounded_wait = True


ELSEWHERE = _Elsewhere()


def _client_of(context: Context) -> AgentClient | None:
    """The MCP client that made this call, as it names itself (none may be given)."""
    params = context.request_context.session.client_params
    if params is None:
        return None
    return AgentClient(params.client_info.name, params.client_info.version)


def tool_result(response: ProvideChoiceResponse) -> CallToolResult:
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


def error_result(message: str, problems: list[str] | None = None) -> CallToolResult:
    """An error the agent reads: the first `PROBLEM_LIMIT` problems, and how many more there are
    (ten thousand broken options must not make a megabyte of text)."""
    problems = problems or []
    lines = [message, *(f"- {problem}" for problem in problems[:PROBLEM_LIMIT])]
    if len(problems) > PROBLEM_LIMIT:
        lines.append(f"- and {len(problems) - PROBLEM_LIMIT:,} more problems of the same kinds")
    text = "\n".join(lines)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)
