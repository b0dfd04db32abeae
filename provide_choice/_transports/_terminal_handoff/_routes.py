"""The hand-off's routes on the bridge, all under `/terminal/`: what `choice-terminal` talks to.


- `GET  /terminal/<id>`         the session's state and time left (the `selection.url`);
- `POST /terminal/<id>/attach`  claim the session once (409 after that) and get the request (a
                                batch: the request holds `questions`), the settings and the seconds
                                left (not a clock time: monotonic clocks differ between processes);
- `POST /terminal/<id>/settings` the settings the person changed in the terminal, only those,
                                applied by the question (`apply_settings`: saved to the server's
                                settings file, the timeout action, a longer deadline); the reply
                                has the settings in force and the seconds left;
- `POST /terminal/<id>/touch`   the person pressed a first key: the question's alerts are no
                                longer needed;
- `POST /terminal/<id>/keep`    a batch: `{question_id, submission}`, the answer the person gave to
                                one question, kept (`kept_answer`) if the batch ends half-way;
- `POST /terminal/<id>/result`  what the person did (a submission, a cancel, the deadline seen),
                                made an answer by `_contract._meaning` under the question's settings
                                (a batch's by `_batch_meaning`; 422 keeps the session pending);
                                first one wins, a second gets 409.

Unknown ids get 404, expired ones 410, bodies the bridge cannot take 413 or 422 (`read_json`), a
shared store away 503, each as the bridge's one refusal shape. Every message tells the person what to do next, because
`choice-terminal` prints it as its one line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from present_choices import ChoicesError
from provide_choice._bridge._local_http import BodyRefused, read_json, refusal, route
from provide_choice._contract._batch import BatchRequest
from provide_choice._contract._batch_meaning import kept_answer, read_batch_reported
from provide_choice._contract._meaning import Submission, read_reported
from provide_choice._contract._outcomes import Ending, TimedOut
from provide_choice._contract._request import describe
from provide_choice._contract._setting_changes import shown_settings
from provide_choice._question import PendingQuestion, QuestionRegistry, StoreUnavailable
from provide_choice._transports._terminal_handoff._command import ROUTE_PREFIX

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
NOT_A_BATCH = "this session asks one question: post its answer to .../result"


Find = Callable[[Request], Awaitable[PendingQuestion | Response]]
"""The hand-off question a request's session id names, or the refusal to answer with."""


def install(app: Starlette, questions: QuestionRegistry) -> None:
    """Add the hand-off's routes to the bridge's app."""

    async def find(request: Request) -> PendingQuestion | Response:
        try:
            question = await questions.fetch(request.path_params["session_id"])
        except StoreUnavailable as away:
            return refusal(503, [f"{away}; try again in a moment"])
        if question is None or question.transport != "terminal_handoff":
            return refusal(404, [NOT_FOUND])
        if isinstance(question.outcome, TimedOut):
            return refusal(410, [EXPIRED])
        return question

    _session_routes(app, find)
    _answer_routes(app, find)


def _session_routes(app: Starlette, find: Find) -> None:
    """What the terminal reads of a session, claims, and says of the person's first key."""

    @route(app, "GET", ROUTE_PREFIX + "/{session_id}")
    async def session_state(request: Request) -> Response:
        question = await find(request)
        if not isinstance(question, PendingQuestion):
            return question
        return JSONResponse(
            {
                "session_id": question.id,
                "status": question.status,
                "title": question.interaction.asked.title,
                "seconds_left": question.seconds_left(),
            }
        )

    @route(app, "POST", ROUTE_PREFIX + "/{session_id}/attach")
    async def attach(request: Request) -> Response:
        question = await find(request)
        if not isinstance(question, PendingQuestion):
            return question
        if not await question.attach():
            return refusal(
                409, [ALREADY_ATTACHED if question.status == "attached" else ALREADY_ANSWERED]
            )
        return JSONResponse(
            {
                "request": question.interaction.asked.model_dump(mode="json", by_alias=True),
                "settings": shown_settings(question.interaction.settings),
                "seconds_left": question.seconds_left(),
            }
        )

    @route(app, "POST", ROUTE_PREFIX + "/{session_id}/touch")
    async def touch(request: Request) -> Response:
        question = await find(request)
        if not isinstance(question, PendingQuestion):
            return question
        question.touch()
        return JSONResponse({"status": question.status})


def _answer_routes(app: Starlette, find: Find) -> None:
    """What the person changed and answered in the terminal: settings, a batch's kept answers,
    the result."""

    @route(app, "POST", ROUTE_PREFIX + "/{session_id}/settings")
    async def settings_changed(request: Request) -> Response:
        question = await find(request)
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
        return JSONResponse(
            {
                "status": question.status,
                "settings": shown_settings(settings),
                "seconds_left": question.seconds_left(),
            }
        )

    @route(app, "POST", ROUTE_PREFIX + "/{session_id}/result")
    async def result(request: Request) -> Response:
        question = await find(request)
        if not isinstance(question, PendingQuestion):
            return question
        if question.status == "finished":
            return refusal(409, [ALREADY_ANSWERED])
        if question.status != "attached":
            return refusal(409, [NOT_ATTACHED])
        try:
            outcome = _ending(await read_json(request), question)
        except BodyRefused as refused:
            return refusal(refused.status, [refused.problem])
        except ChoicesError as error:
            return refusal(422, error.problems)
        try:
            if not await question.settle(outcome):
                return refusal(409, [ALREADY_ANSWERED])
        except StoreUnavailable as away:
            return refusal(503, [f"{away}; your answer was not sent: try again in a moment"])
        return JSONResponse({"status": question.status})

    @route(app, "POST", ROUTE_PREFIX + "/{session_id}/keep")
    async def keep(request: Request) -> Response:
        question = await find(request)
        if not isinstance(question, PendingQuestion):
            return question
        if question.status != "attached":
            return refusal(
                409, [NOT_ATTACHED if question.status == "pending" else ALREADY_ANSWERED]
            )
        batch = question.interaction.batch
        if batch is None:
            return refusal(422, [NOT_A_BATCH])
        try:
            question_id, submission = _kept(await read_json(request), batch)
        except BodyRefused as refused:
            return refusal(refused.status, [refused.problem])
        except ChoicesError as error:
            return refusal(422, error.problems)
        item = batch.question(question_id)
        assert item is not None  # `_kept` checked it
        question.keep(question_id, kept_answer(submission, item.request, question.settings))
        return JSONResponse({"status": question.status})


def _ending(data: object, question: PendingQuestion) -> Ending:
    """How a posted report ends the question (or the batch). The deadline a batch's terminal
    saw ends it as the server's own timer does. Raises `ChoicesError` listing every problem."""
    interaction = question.interaction
    batch = interaction.batch
    if batch is None:
        return read_reported(data, interaction.request, interaction.settings)
    if isinstance(data, dict) and data.get("kind") == "timeout":
        return TimedOut(action=interaction.settings.timeout_action)
    return read_batch_reported(data, batch, interaction.settings)


class _KeptBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question_id: str
    submission: Submission


def _kept(data: object, batch: BatchRequest) -> tuple[str, Submission]:
    try:
        body = _KeptBody.model_validate(data)
    except ValidationError as error:
        raise ChoicesError(describe(error)) from None
    if batch.question(body.question_id) is None:
        raise ChoicesError([f"{body.question_id}: is not a question of this batch"])
    return body.question_id, body.submission
