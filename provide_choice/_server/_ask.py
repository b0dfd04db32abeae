"""`provide-choice ask`: one question from a shell, asked the way a server asks it.

The question goes through a `QuestionRegistry` with the history's recorder and the alerts, and goes
where a server's would: every transport set up here is built (this terminal, when there is one; a
page on a local bridge that starts only when a page is served; the plug-ins' transports), and the
one the wish names, else the person's setting, else the automatic order (a plug-in's first when its
`auto_order` says so) asks it. No MCP client is there, so neither its dialog nor its app view. The
history, the inbox and the alerts see it like any other, with `provide-choice ask` as the client
that asked. A question answered before anyone is asked (a rule of the answers file; nobody, when it
runs unattended or the person is away) is recorded alike (never alerted: nobody is to answer it).
The MCP SDK is never loaded.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TextIO

from provide_choice._alerts import QuestionAlerts
from provide_choice._bridge._bridge import Bridge
from provide_choice._contract._batch_response import respond
from provide_choice._contract._outcomes import Cancelled, Ending, PendingLaunch
from provide_choice._contract._response import ProvideChoiceResponse
from provide_choice._contract._transport_table import ClientFeatures
from provide_choice._history._recorder import HistoryRecorder, start_recorder
from provide_choice._notices import PREFIX, say
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
from provide_choice._transports._registry import (
    asks_here,
    build_transports,
    choose_transport,
    why_unavailable,
)
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


def ask_person(
    request: ProvideChoiceRequest,
    wish: str | None,
    terminal: TextIO | None,
    *,
    open_browser: bool = True,
) -> ProvideChoiceResponse:
    """Ask `request` where `wish` (a transport's name; None: the request's own wish, else the
    person's setting, else the automatic order) says, as a server would: on `terminal` (keys from
    stdin) when it is one and asks, on a page of a local bridge (its address said on stderr, opened
    in the browser unless `open_browser` is false), on a plug-in's transport. Return the response
    the agent would get. Raises `TransportError` saying why when nothing set up here can ask it.

    The history's writes are done before this returns, whatever ended the question: an answer,
    Ctrl-C, the deadline, or an interrupt signal between two screens (a cancel, as Ctrl-C is).
    """
    recorder = start_recorder()
    try:
        transport, outcome, url = asyncio.run(_ask(request, wish, terminal, open_browser, recorder))
    finally:
        recorder.close()
    return respond(request, outcome, transport, url=url)


async def _ask(
    request: ProvideChoiceRequest,
    wish: str | None,
    terminal: TextIO | None,
    open_browser: bool,
    recorder: HistoryRecorder,
) -> tuple[str, Ending, str | None]:
    alerts = QuestionAlerts(failed=recorder.alert_failed)
    questions = QuestionRegistry(recorder=Recorders(recorder, alerts))
    bridge = Bridge(port=0)
    setup = TransportSetup(
        questions, bridge=bridge, terminal=terminal, open_browser=open_browser, alerts=alerts
    )
    # Every transport set up here is built: one that follows every question (Telegram) is
    # alerted of this one too.
    transports = build_transports(setup)
    try:
        settings = load_settings()
        requested = wish or request.transport
        named = [name for name in (requested, settings.transport) if name is not None]
        has = asks_here(transports, named)
        choice = choose_transport(requested, settings.transport, has, ShellCaller.features)
        if choice is None:
            raise TransportError(why_unavailable(requested, settings.transport))
        interaction = Interaction.start(request, settings, note=choice.note, client=_shell_client())
        question = questions.create(interaction, choice.transport)
        try:
            launch = await transports[choice.transport].show(question, ShellCaller())
            if isinstance(launch, PendingLaunch):  # a terminal the person opens answers it
                say(f"{PREFIX}run this in a terminal to answer: {launch.command}")
            else:
                question.mark_shown()
            ending = await question.wait()
        except asyncio.CancelledError:
            # SIGINT outside a screen (between two, or from `kill -INT`): asyncio.run cancels
            # this task. The person stopped the question; the screen is closed as the run ends.
            question.finish(Cancelled())
            ending = question.outcome or Cancelled()
        return choice.transport, ending, question.url
    finally:
        await close_transports(transports)
        await bridge.aclose()


def _shell_client() -> AgentClient:
    return AgentClient(CLIENT_NAME, package_version())
