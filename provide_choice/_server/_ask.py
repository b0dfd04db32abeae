"""`provide-choice ask`: one question in this terminal, asked the way a server asks it.

The question goes through a `QuestionRegistry` with the history's recorder and the alerts, and is
shown by the server's own `TerminalTransport` (or, with `--transport`, another one set up here: a
plug-in's such as telegram), so the history, the inbox and the alerts see it like any other, with `provide-choice ask` as the client that asked. A question answered before anyone is
asked (a rule of the answers file; nobody, when it runs unattended or the person is away) needs no
terminal, and is recorded alike (never alerted: nobody is to answer it). The MCP SDK is never
loaded.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TextIO

from provide_choice._alerts import QuestionAlerts
from provide_choice._contract._batch_response import respond
from provide_choice._contract._outcomes import Cancelled, Ending
from provide_choice._contract._response import ProvideChoiceResponse
from provide_choice._contract._transport_table import AUTO, ClientFeatures
from provide_choice._history._recorder import HistoryRecorder, start_recorder
from provide_choice._question import (
    AgentClient,
    Interaction,
    QuestionRegistry,
    Recorders,
    TransportError,
)
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._settings_file import load_settings
from provide_choice._transports._base import TransportSetup, close_transports
from provide_choice._transports._registry import build_transports, why_unavailable
from provide_choice._version import package_version

if TYPE_CHECKING:
    from mcp_types import ElicitRequestParams, ElicitResult

    from provide_choice._contract._request import ProvideChoiceRequest

CLIENT_NAME = "provide-choice ask"
"""The client a question asked from a shell is recorded with, in the history and the inbox."""


class ShellCaller:
    """The `Caller` of a question asked from a shell: there is no MCP client, so no dialog."""

    features = ClientFeatures()
    input_required = False

    async def elicit(self, params: ElicitRequestParams) -> ElicitResult:
        raise TransportError("a question asked from a shell has no MCP client to show a dialog")

    async def elicitation_complete(self, elicitation_id: str) -> None:
        return None


def answer_at_once(
    request: ProvideChoiceRequest, policy: AnswerPolicy
) -> ProvideChoiceResponse | None:
    """The response when the question is answered before anyone is asked (a rule of the answers
    file; nobody, unattended or away), recorded in the history; None when the person is to be
    asked. Raises `RuleMisfit` when a rule matches but does not fit."""
    settings = load_settings()
    outcome = policy.answer_at_once(request, settings)
    if outcome is None:
        return None
    recorder = start_recorder()
    try:
        interaction = Interaction.start(request, settings, client=_shell_client())
        QuestionRegistry(recorder=recorder).settle(interaction, outcome)
    finally:
        recorder.close()
    return respond(request, outcome, None)


def ask_in_terminal(
    request: ProvideChoiceRequest, output: TextIO | None, transport: str = "terminal"
) -> ProvideChoiceResponse:
    """Ask `request` on `output` (keys from stdin), or on the `transport` named (a plug-in's,
    such as telegram, which needs no terminal), and return the response the agent would get.
    Raises `TransportError` saying why when that transport is not set up here.

    The history's writes are done before this returns, whatever ended the question: an answer,
    Ctrl-C, the deadline, or an interrupt signal between two screens (a cancel, as Ctrl-C is).
    """
    recorder = start_recorder()
    try:
        outcome = asyncio.run(_ask(request, output, transport, recorder))
    finally:
        recorder.close()
    return respond(request, outcome, transport)


async def _ask(
    request: ProvideChoiceRequest,
    output: TextIO | None,
    name: str,
    recorder: HistoryRecorder,
) -> Ending:
    alerts = QuestionAlerts(failed=recorder.alert_failed)
    questions = QuestionRegistry(recorder=Recorders(recorder, alerts))
    # Every transport set up here is built: one that follows every question (Telegram) is
    # alerted of this one too.
    transports = build_transports(TransportSetup(questions, terminal=output, alerts=alerts))
    if name not in transports:
        raise TransportError(why_unavailable(name, AUTO))
    question = questions.create(
        Interaction.start(request, load_settings(), client=_shell_client()), name
    )
    try:
        await transports[name].show(question, ShellCaller())
        question.mark_shown()
        return await question.wait()
    except asyncio.CancelledError:
        # SIGINT outside a screen (between two, or from `kill -INT`): asyncio.run cancels this
        # task. The person stopped the question; the screen is closed as the run ends.
        question.finish(Cancelled())
        return question.outcome or Cancelled()
    finally:
        await close_transports(transports)


def _shell_client() -> AgentClient:
    return AgentClient(CLIENT_NAME, package_version())
