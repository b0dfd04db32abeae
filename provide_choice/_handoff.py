"""The terminal hand-off: the question waits on the bridge until the person answers it in a terminal
the agent opens (`choice-terminal`), and a second `provide_choice(session_id=...)` fetches the answer.

An MCP server started over stdio has no terminal of its own, but the agent usually has a "run in
terminal" tool. So the call does not wait: the question waits on the bridge and the call returns
`PendingLaunch` with the command to run. The `/terminal/...` routes here are what that command talks to:

- `GET  /terminal/<id>`         the session's state and time left (the `selection.url`);
- `POST /terminal/<id>/attach`  claim the session once (409 after that) and get the request, the
                                settings and the seconds left (not a clock time: monotonic clocks
                                differ between processes);
- `POST /terminal/<id>/settings` the settings the person changed in the terminal, only those:
                                saved to the server's settings file, and the question follows them
                                (the timeout action, a longer deadline);
- `POST /terminal/<id>/result`  the outcome, validated against the request (422 keeps the session
                                pending); first one wins, a second gets 409.

Unknown ids get 404, expired ones 410, bodies the bridge cannot take 413 or 422 (`read_json`). Every message tells the person what to do next, because
`choice-terminal` prints it as its one line.
"""

# No `from __future__ import annotations`: FastAPI reads the route functions' annotations, and
# `Request` exists only inside `_install_routes`, where FastAPI is imported on the bridge's first start.
import asyncio
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from provide_choice._bridge import BodyRefused, Bridge, read_json, refusal
from provide_choice._response import PendingLaunch, TimedOut, validate_outcome
from provide_choice._sessions import PendingQuestion, QuestionRegistry
from provide_choice._settings import apply_changes, save_changes
from provide_choice._transport import Caller, Transport
from provide_choice._transport_kinds import TransportName

if TYPE_CHECKING:
    from fastapi import FastAPI

CLIENT_COMMAND = "choice-terminal"
ROUTE_PREFIX = "/terminal"

ASK_AGAIN = "ask the agent to call provide_choice again (each session can be used once)"
NOT_FOUND = (
    f"this session does not exist (any more): it was already answered and fetched, or its "
    f"server restarted; {ASK_AGAIN}"
)
EXPIRED = f"this question expired: its deadline passed before it was answered; {ASK_AGAIN}"
ALREADY_ATTACHED = (
    "this question is already open in another terminal; answer it there, or " + ASK_AGAIN
)
ALREADY_ANSWERED = f"this question was already answered or cancelled; {ASK_AGAIN}"
NOT_ATTACHED = "attach to the session (POST .../attach) before posting a result"


class HandoffTransport:
    """Keeps the question on the bridge and returns at once with the command to answer it."""

    cancelled_with_the_call = False
    bounded_wait = True

    def __init__(self, bridge: Bridge, questions: QuestionRegistry) -> None:
        self.bridge = bridge
        self.questions = questions
        bridge.add_routes(self._install_routes)

    async def show(self, question: PendingQuestion, caller: Caller) -> PendingLaunch:
        base_url = await self.bridge.hold(question)
        url = f"{base_url}{ROUTE_PREFIX}/{question.id}"
        question.show_at(url)
        return PendingLaunch(
            session_id=question.id, url=url, command=client_command(question.id, base_url)
        )

    def _install_routes(self, app: "FastAPI") -> None:
        from fastapi import Request, Response

        def find(session_id: str) -> PendingQuestion | Response:
            question = self.questions.get(session_id)
            if question is None or question.transport != "terminal_handoff":
                return refusal(404, [NOT_FOUND])
            if isinstance(question.outcome, TimedOut):
                return refusal(410, [EXPIRED])
            return question

        @app.get(ROUTE_PREFIX + "/{session_id}")
        async def session_state(session_id: str) -> Any:
            question = find(session_id)
            if not isinstance(question, PendingQuestion):
                return question
            return {
                "session_id": question.id,
                "status": question.status,
                "title": question.interaction.request.title,
                "seconds_left": question.seconds_left(),
            }

        @app.post(ROUTE_PREFIX + "/{session_id}/attach")
        async def attach(session_id: str) -> Any:
            question = find(session_id)
            if not isinstance(question, PendingQuestion):
                return question
            if not question.attach():
                return refusal(
                    409, [ALREADY_ATTACHED if question.status == "attached" else ALREADY_ANSWERED]
                )
            return {
                "request": question.interaction.request.model_dump(mode="json", by_alias=True),
                "settings": question.interaction.settings.model_dump(mode="json"),
                "seconds_left": question.seconds_left(),
            }

        @app.post(ROUTE_PREFIX + "/{session_id}/settings")
        async def settings_changed(session_id: str, request: Request) -> Any:
            question = find(session_id)
            if not isinstance(question, PendingQuestion):
                return question
            if question.status != "attached":
                return refusal(409, [NOT_ATTACHED])
            try:
                _settings, changes = apply_changes(
                    question.interaction.settings, await read_json(request)
                )
            except BodyRefused as refused:
                return refusal(refused.status, [refused.problem])
            except ChoicesError as error:
                return refusal(422, error.problems)
            # The server saves them: its settings file is the one every later question reads,
            # whatever environment the agent's terminal runs in.
            await asyncio.to_thread(save_changes, changes)
            question.change_settings(changes)
            return {"status": question.status}

        @app.post(ROUTE_PREFIX + "/{session_id}/result")
        async def result(session_id: str, request: Request) -> Any:
            question = find(session_id)
            if not isinstance(question, PendingQuestion):
                return question
            if question.status == "finished":
                return refusal(409, [ALREADY_ANSWERED])
            if question.status != "attached":
                return refusal(409, [NOT_ATTACHED])
            try:
                outcome = validate_outcome(question.interaction.request, await read_json(request))
            except BodyRefused as refused:
                return refusal(refused.status, [refused.problem])
            except ChoicesError as error:
                return refusal(422, error.problems)
            question.finish(outcome)
            return {"status": question.status}


def handoff_transports(
    bridge: Bridge, questions: QuestionRegistry
) -> dict[TransportName, Transport]:
    """The `"terminal_handoff"` entry of a server's transports."""
    return {"terminal_handoff": HandoffTransport(bridge, questions)}


def client_command(session_id: str, base_url: str) -> str:
    """`choice-terminal --session <id> --url <bridge url>`, with the script's full path when the
    name alone would not find this installation's script (a virtual environment not on PATH)."""
    installed = Path(sys.executable).parent / CLIENT_COMMAND
    on_path = shutil.which(CLIENT_COMMAND)
    program = CLIENT_COMMAND
    if installed.exists() and (on_path is None or not Path(on_path).samefile(installed)):
        program = shlex.quote(str(installed))
    return f"{program} --session {shlex.quote(session_id)} --url {shlex.quote(base_url)}"
