"""`ElicitationTransport`: the question in the MCP client's own dialog (form-mode elicitation).

Claude Code, VS Code, Cursor, Goose, the GitHub Copilot CLI and the MCP Inspector can show a form
themselves: the person answers there, with nothing else to open. On the 2025-11-25 revision the
server sends `elicitation/create` during the call; on 2026-07-28 the call returns `input_required`
with the form, and the client retries it with the answer (`resume`). Either way the answer goes
through the same checks and `normalize` as every transport's: one that does not fit is never passed
on but asked again once, stating the problem; a second misfit cancels the question and says why.

The call is not cut at `--max-wait` (`bounded_wait`): the client is showing the dialog and waits
for it. At the deadline the question times out and the request still open is cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from present_choices import ChoicesError
from provide_choice._contract._outcomes import Cancelled, Ending
from provide_choice._question import Interaction
from provide_choice._transports._base import Caller, InputNeeded
from provide_choice._transports._elicitation._batch_form import (
    batch_form_params,
    read_batch_answer,
)
from provide_choice._transports._elicitation._form import form_params, read_answer
from provide_choice._transports._kinds import ELICITATION

if TYPE_CHECKING:
    from mcp_types import ElicitRequestFormParams, ElicitResult

    from provide_choice._question import PendingQuestion
    from provide_choice._transports._base import TransportSetup

ANSWER_KEY = "answer"
"""The key of the form among a round's input requests (2026-07-28)."""
ATTEMPTS = 2
"""How often the form is shown: once, and once more when the answer did not fit."""

DECLINED = "The person declined to answer in the MCP client's dialog"
DISMISSED = "The person dismissed the MCP client's dialog without answering"
NO_ANSWER = "The MCP client sent no answer to its dialog"


class ElicitationTransport:
    """Asks in the client's own dialog; any number of questions may wait at once."""

    kind = ELICITATION
    cancelled_with_the_call = True
    bounded_wait = False

    def __init__(self) -> None:
        self._asking: set[asyncio.Task[None]] = set()

    @classmethod
    def build(cls, setup: TransportSetup) -> ElicitationTransport:
        """Always: it needs nothing set up, only a client with a dialog (`kind.needs`)."""
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> InputNeeded | None:
        if caller.input_required:
            return _round(question, attempt=1)
        task = asyncio.get_running_loop().create_task(self._ask(question, caller))
        self._asking.add(task)
        task.add_done_callback(self._asking.discard)
        # The deadline or the agent's cancel ends the question: the open request is cancelled
        # (the SDK tells the client with notifications/cancelled).
        question.on_finish(lambda _question: task.cancel())
        return None

    async def resume(
        self,
        question: PendingQuestion,
        caller: Caller,
        responses: Mapping[str, object],
        state: Mapping[str, Any],
    ) -> InputNeeded | None:
        from mcp_types import ElicitResult  # the SDK loads only when a question is asked

        attempt = int(state.get("attempt", ATTEMPTS))
        result = responses.get(ANSWER_KEY)
        if not isinstance(result, ElicitResult):
            question.finish(Cancelled(detail=NO_ANSWER))
            return None
        ending = _ending(question, result, attempt)
        if isinstance(ending, str):
            return _round(question, attempt + 1, problem=ending)
        question.finish(ending)
        return None

    async def _ask(self, question: PendingQuestion, caller: Caller) -> None:
        problem: str | None = None
        for attempt in range(1, ATTEMPTS + 1):
            interaction = question.interaction
            try:
                result = await caller.elicit(_form_of(interaction, problem))
            except Exception as error:  # an error reply, or a client that broke the protocol
                detail = f"The MCP client could not show its dialog ({str(error)[:200]})"
                question.finish(Cancelled(detail=detail))
                return
            ending = _ending(question, result, attempt)
            if not isinstance(ending, str):
                question.finish(ending)
                return
            problem = ending


def _form_of(interaction: Interaction, problem: str | None) -> ElicitRequestFormParams:
    """The form of the question, or of the batch: one field per question."""
    if interaction.batch is not None:
        return batch_form_params(interaction.batch, interaction.settings, problem)
    return form_params(interaction.request, interaction.settings, problem)


def _round(question: PendingQuestion, attempt: int, problem: str | None = None) -> InputNeeded:
    """The form as the request of one `input_required` round."""
    interaction = question.interaction
    # Deferred for start-up time: loaded only when this runs.
    from mcp_types import ElicitRequest

    params = _form_of(interaction, problem)
    return InputNeeded({ANSWER_KEY: ElicitRequest(params=params)}, {"attempt": attempt})


def _ending(question: PendingQuestion, result: ElicitResult, attempt: int) -> Ending | str:
    """How the client's result ends the question, or the problem to ask again with."""
    if result.action == "decline":
        return Cancelled(detail=DECLINED)
    if result.action == "cancel":
        return Cancelled(detail=DISMISSED)
    interaction, content = question.interaction, result.content or {}
    try:
        if interaction.batch is not None:
            return read_batch_answer(interaction.batch, interaction.settings, content)
        return read_answer(interaction.request, interaction.settings, content)
    except ChoicesError as error:
        problem = "; ".join(error.problems)
    if attempt < ATTEMPTS:
        return problem
    return Cancelled(
        detail=f"The answer from the MCP client's dialog did not fit the question twice ({problem})"
    )
