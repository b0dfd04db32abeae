"""The terminal hand-off: the question waits on the bridge until the person answers it in a terminal
the agent opens (`choice-terminal`), and a second `provide_choice(session_id=...)` fetches the answer.

An MCP server started over stdio has no terminal of its own, but the agent usually has a "run in
terminal" tool. So `ask` does not wait: it creates a pending question and returns `PendingLaunch`
with the command to run. The `/terminal/...` routes here are what that command talks to:

- `GET  /terminal/<id>`         the session's state and time left (the `selection.url`);
- `POST /terminal/<id>/attach`  claim the session once (409 after that) and get the request, the
                                settings and the seconds left (not a clock time: monotonic clocks
                                differ between processes);
- `POST /terminal/<id>/settings` the person changed settings in the terminal: saved to the server's
                                settings file, and the timeout action at the deadline follows them;
- `POST /terminal/<id>/result`  the outcome, validated against the request (422 keeps the session
                                pending); first one wins, a second gets 409.

Unknown ids get 404, expired ones 410. Every message tells the person what to do next, because
`choice-terminal` prints it as its one line.
"""

# No `from __future__ import annotations`: FastAPI reads the route functions' annotations, and
# `Request` exists only inside `_install_routes`, where FastAPI is imported on the bridge's first start.
import asyncio
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from present_choices import ChoicesError, describe_errors
from provide_choice._bridge import Bridge
from provide_choice._response import (
    Outcome,
    PendingLaunch,
    TimedOut,
    TransportName,
    validate_outcome,
)
from provide_choice._sessions import PendingQuestion, QuestionRegistry
from provide_choice._settings import InteractionSettings, save_settings
from provide_choice._transport import Interaction, Transport

if TYPE_CHECKING:
    from fastapi import FastAPI, Request

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
    """Creates a pending question on the bridge and returns at once with the command to answer it."""

    def __init__(self, bridge: Bridge, questions: QuestionRegistry) -> None:
        self.bridge = bridge
        self.questions = questions
        self._releasing: set[asyncio.Task[None]] = set()
        bridge.add_routes(self._install_routes)

    async def ask(self, interaction: Interaction) -> Outcome:
        base_url = await self.bridge.acquire()
        question = self.questions.create(interaction, "terminal_handoff")
        # The bridge is needed until the question ends; the poll that fetches it needs no bridge.
        question.on_finish(self._release_bridge)
        return PendingLaunch(
            session_id=question.id,
            url=f"{base_url}{ROUTE_PREFIX}/{question.id}",
            command=client_command(question.id, base_url),
        )

    def _release_bridge(self, _question: PendingQuestion) -> None:
        task = asyncio.get_running_loop().create_task(self.bridge.release())
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    def _install_routes(self, app: "FastAPI") -> None:
        from fastapi import Request
        from fastapi.responses import JSONResponse

        def refused(status: int, detail: str) -> JSONResponse:
            return JSONResponse({"detail": detail}, status_code=status)

        def find(session_id: str) -> PendingQuestion | JSONResponse:
            question = self.questions.get(session_id)
            if question is None or question.transport != "terminal_handoff":
                return refused(404, NOT_FOUND)
            if isinstance(question.outcome, TimedOut):
                return refused(410, EXPIRED)
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
                return refused(
                    409, ALREADY_ATTACHED if question.status == "attached" else ALREADY_ANSWERED
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
                return refused(409, NOT_ATTACHED)
            try:
                settings = InteractionSettings.model_validate(await _json_body(request))
            except ValidationError as error:
                return JSONResponse({"detail": describe_errors(error)}, status_code=422)
            except ChoicesError as error:
                return JSONResponse({"detail": error.problems}, status_code=422)
            # The server saves them: its settings file is the one every later question reads,
            # whatever environment the agent's terminal runs in.
            await asyncio.to_thread(save_settings, settings)
            question.update_settings(settings)
            return {"status": question.status}

        @app.post(ROUTE_PREFIX + "/{session_id}/result")
        async def result(session_id: str, request: Request) -> Any:
            question = find(session_id)
            if not isinstance(question, PendingQuestion):
                return question
            if question.status == "finished":
                return refused(409, ALREADY_ANSWERED)
            if question.status != "attached":
                return refused(409, NOT_ATTACHED)
            try:
                outcome = _posted_outcome(question, await _json_body(request))
            except ChoicesError as error:
                return JSONResponse({"detail": error.problems}, status_code=422)
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


async def _json_body(request: "Request") -> object:
    try:
        return await request.json()
    except json.JSONDecodeError as error:
        raise ChoicesError([f"the body is not valid JSON: {error.msg}"]) from None


def _posted_outcome(question: PendingQuestion, data: object) -> Outcome:
    """An answer, a cancel or a timeout from the terminal; never another hand-off."""
    outcome = validate_outcome(question.interaction.request, data)
    if isinstance(outcome, PendingLaunch):
        raise ChoicesError(["kind must be answered, cancelled or timeout"])
    return outcome
