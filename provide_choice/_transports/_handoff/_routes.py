"""The hand-off's routes on the bridge, all under `/terminal/`: what `choice-terminal` talks to.


- `GET  /terminal/<id>`         the session's state and time left (the `selection.url`);
- `POST /terminal/<id>/attach`  claim the session once (409 after that) and get the request, the
                                settings and the seconds left (not a clock time: monotonic clocks
                                differ between processes);
- `POST /terminal/<id>/settings` the settings the person changed in the terminal, only those,
                                applied by the question (`apply_settings`: saved to the server's
                                settings file, the timeout action, a longer deadline); the reply
                                has the settings in force and the seconds left;
- `POST /terminal/<id>/result`  what the person did (a submission, a cancel, the deadline seen),
                                made an answer by `_contract._meaning` under the question's settings
                                (422 keeps the session pending); first one wins, a second gets 409.

Unknown ids get 404, expired ones 410, bodies the bridge cannot take 413 or 422 (`read_json`), each
as the bridge's one refusal shape. Every message tells the person what to do next, because
`choice-terminal` prints it as its one line.
"""

# No `from __future__ import annotations`: FastAPI reads the route functions' annotations.
from typing import Any

from fastapi import FastAPI, Request, Response

from present_choices import ChoicesError
from provide_choice._contract._meaning import read_reported
from provide_choice._contract._response import TimedOut
from provide_choice._server._sessions import PendingQuestion, QuestionRegistry
from provide_choice._transports._handoff._transport import ROUTE_PREFIX
from provide_choice._web._local_http import BodyRefused, read_json, refusal

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


def install(app: FastAPI, questions: QuestionRegistry) -> None:
    """Add the hand-off's routes to the bridge's app."""

    def find(session_id: str) -> PendingQuestion | Response:
        question = questions.get(session_id)
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
        # The server saves them: its settings file is the one every later question reads,
        # whatever environment the agent's terminal runs in.
        try:
            settings = await question.apply_settings(await read_json(request))
        except BodyRefused as refused:
            return refusal(refused.status, [refused.problem])
        except ChoicesError as error:
            return refusal(422, error.problems)
        return {
            "status": question.status,
            "settings": settings.model_dump(mode="json"),
            "seconds_left": question.seconds_left(),
        }

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
            interaction = question.interaction
            outcome = read_reported(
                await read_json(request), interaction.request, interaction.settings
            )
        except BodyRefused as refused:
            return refusal(refused.status, [refused.problem])
        except ChoicesError as error:
            return refusal(422, error.problems)
        question.finish(outcome)
        return {"status": question.status}
