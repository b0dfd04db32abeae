"""Pending questions: a question asked in one call and answered later, maybe after several calls.

Every transport shows a question that may outlive the MCP call that asked it: a call waits at most
`serve --max-wait` seconds, then the agent polls with the question's id. So the question lives here:
created with its deadline, shown by a transport (maybe at an address, maybe attached by a terminal),
finished exactly once (answer, cancel, or the deadline), then consumed by the call that returns the
outcome. Nothing here imports FastAPI: the bridge serves these, it does not own them.

Memory per pending question is the `Interaction` plus one timer handle, never a task: the deadline
is a `loop.call_later`, replaced on finish by the retention timer that drops a never-consumed
question, so the registry cannot grow without bound.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from provide_choice._contract._response import (
    Answered,
    Cancelled,
    Ending,
    FromAnswersFile,
    NobodyAsked,
    TimedOut,
)
from provide_choice._contract._settings import (
    InteractionSettings,
    TimeoutAction,
    apply_changes,
    save_changes,
)
from provide_choice._contract._transport_table import TransportName
from provide_choice._question._interaction import Interaction

QuestionStatus = Literal["pending", "attached", "finished"]
FinishCallback = Callable[["PendingQuestion"], object]

ID_BYTES = 24
"""192 random bits, well above the 128 a session id must carry. Written in hex, not urlsafe base64:
an id starting with "-" would read as an option on the `choice-terminal --session <id>` line."""

RETENTION_SECONDS = 600.0
"""How long a finished question waits to be consumed before it is dropped."""


@dataclass(frozen=True)
class SettledQuestion:
    """A question answered before anyone was asked, by a rule of the answers file or by nobody
    (unattended, away): shown nowhere, it ends as it is asked, and is recorded like any other."""

    id: str
    interaction: Interaction
    outcome: FromAnswersFile | NobodyAsked
    transport: None = None
    """Shown on no transport."""
    url: None = None

    def seconds_left(self) -> float:
        return 0.0


class QuestionRecorder(Protocol):
    """Told about every question of a registry, whatever its transport (the history). Called in the
    event loop, so each call must return at once and never raise."""

    def asked(self, question: PendingQuestion | SettledQuestion) -> None:
        """It was just created: not shown anywhere yet (a settled one never will be)."""

    def changed(self, question: PendingQuestion) -> None:
        """Its address or its deadline changed."""

    def shown(self, question: PendingQuestion) -> None:
        """It is in front of the person now (once): on its page, in a terminal, in the client."""

    def ended(self, question: PendingQuestion | SettledQuestion) -> None:
        """It finished (once): `question.outcome` says how."""


class Recorders:
    """Several recorders told of the same questions, in order (the history, the alerts)."""

    def __init__(self, *recorders: QuestionRecorder) -> None:
        self.recorders = recorders

    def asked(self, question: PendingQuestion | SettledQuestion) -> None:
        for recorder in self.recorders:
            recorder.asked(question)

    def changed(self, question: PendingQuestion) -> None:
        for recorder in self.recorders:
            recorder.changed(question)

    def shown(self, question: PendingQuestion) -> None:
        for recorder in self.recorders:
            recorder.shown(question)

    def ended(self, question: PendingQuestion | SettledQuestion) -> None:
        for recorder in self.recorders:
            recorder.ended(question)


class PendingQuestion:
    """One question between its creation and its consumption. Create through `QuestionRegistry`."""

    __slots__ = (
        "_callbacks",
        "_registry",
        "_timer",
        "_waiters",
        "changed",
        "id",
        "interaction",
        "kept",
        "outcome",
        "shown",
        "started",
        "status",
        "touched",
        "transport",
        "url",
    )

    def __init__(
        self,
        question_id: str,
        interaction: Interaction,
        transport: TransportName,
        registry: QuestionRegistry,
    ) -> None:
        self.id = question_id
        self.interaction = interaction
        self.transport: TransportName = transport
        self.status: QuestionStatus = "pending"
        self.outcome: Ending | None = None
        self.kept: dict[str, Answered] = {}
        """A batch's questions answered so far, by question id: kept if the batch is cancelled
        or times out half-way (`keep`)."""
        self.url: str | None = None
        """Where the question is shown, once a transport shows it at an address."""
        self.started = time.monotonic()
        self.shown = False
        """Whether it is in front of the person yet (`mark_shown`)."""
        self.touched = False
        """Whether the person did anything with it yet (`touch`): the alerts it waits for are
        then no longer needed."""
        self.changed = asyncio.Event()
        """Set when the address or the deadline changes, so the waiting call tells its client at
        once rather than at its next progress heartbeat. Whoever waits clears it."""
        self._registry = registry
        self._waiters: list[asyncio.Future[Ending]] = []
        self._callbacks: list[FinishCallback] = []
        self._timer = self._call_at_deadline()

    def attach(self) -> bool:
        """Claim the question for one surface (a `choice-terminal`): only a pending question can be
        claimed, once; a second claim gets False (HTTP 409), so two people never answer one question.
        The terminal that claims it shows it."""
        if self.status != "pending":
            return False
        self.status = "attached"
        self.mark_shown()
        return True

    def mark_shown(self) -> None:
        """The question is in front of the person now (its page opened, a terminal drew it, the
        client has it): the alerts that tell them it waits go from here. Only the first call counts."""
        if not self.shown and self.status != "finished":
            self.shown = True
            self._registry.recorder.shown(self)

    def touch(self) -> None:
        """The person did something with the question (a key in its terminal, a change on its
        page): they know it waits."""
        self.touched = True

    def show_at(self, url: str) -> None:
        """The transport shows the question at `url` (a page, a hand-off session)."""
        self.url = url
        self.changed.set()
        self._registry.recorder.changed(self)

    def extend_deadline(self, seconds_from_now: float) -> None:
        """Give the question at least `seconds_from_now` more (the person set a timeout override
        while looking at it); a deadline already further away stays."""
        deadline = time.monotonic() + seconds_from_now
        if self.status == "finished" or deadline <= self.interaction.deadline:
            return
        self.interaction = replace(self.interaction, deadline=deadline)
        self._timer.cancel()
        self._timer = self._call_at_deadline()
        self.changed.set()
        self._registry.recorder.changed(self)

    @property
    def settings(self) -> InteractionSettings:
        """The person's settings in force for this question now."""
        return self.interaction.settings

    async def apply_settings(self, changes: object) -> InteractionSettings:
        """The person changed settings while the question is shown (on its page, in a terminal):
        the one way a surface changes them. Validates `changes` (an object of setting names to
        new values; `ChoicesError` says what is allowed), applies them to this question at once
        (the timeout action at the deadline is the one set last; a timeout override gives it at
        least that long), saves only them over the settings file off the event loop, so later
        questions and other surfaces get them, and returns the settings now in force."""
        settings, changed = apply_changes(self.interaction.settings, changes)
        self.touch()
        self.interaction = replace(self.interaction, settings=settings)
        override = changed.get("timeout_override_seconds")
        if override:
            self.extend_deadline(override)
        await asyncio.to_thread(save_changes, changed)
        return self.interaction.settings

    def keep(self, question_id: str, answer: Answered | None) -> None:
        """A surface showing a batch saw the person answer one of its questions (None: the answer
        was taken back). What is kept when the batch ends is checked again by `normalize_batch`."""
        if answer is None:
            self.kept.pop(question_id, None)
        else:
            self.kept[question_id] = answer

    def finish(self, outcome: Ending) -> bool:
        """Record how the question ended. The first call wins; a later one returns False (HTTP 409).
        A batch cancelled or timed out keeps the answers given so far, and its other questions
        follow the person's timeout action in force then."""
        if self.status == "finished":
            return False
        if self.interaction.batch is not None:
            outcome = _with_kept(outcome, self.kept, self.interaction.settings.timeout_action)
        self.status = "finished"
        self.outcome = outcome
        self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(
            self._registry.retention_seconds, self._registry.pop, self.id
        )
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(outcome)
        self._waiters.clear()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)
        return True

    def on_finish(self, callback: FinishCallback) -> None:
        """Call `callback(question)` once the question finishes (at once when it already has)."""
        if self.status == "finished":
            callback(self)
        else:
            self._callbacks.append(callback)

    async def wait(self) -> Ending:
        """The outcome, once there is one: an answer, a cancel, or `TimedOut` at the deadline.

        Cancelling the wait leaves the question as it is, so a later `wait` still gets the outcome.
        """
        if self.outcome is not None:
            return self.outcome
        waiter: asyncio.Future[Ending] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def seconds_left(self) -> float:
        """Time to the deadline, never negative. Other processes get this, not the deadline itself:
        monotonic clocks are not comparable between processes."""
        return max(self.interaction.deadline - time.monotonic(), 0.0)

    def _call_at_deadline(self) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(self.seconds_left(), self._expire)

    def _expire(self) -> None:
        self.finish(TimedOut(action=self.interaction.settings.timeout_action))


def _with_kept(outcome: Ending, kept: dict[str, Answered], rest: TimeoutAction) -> Ending:
    if isinstance(outcome, TimedOut):
        return outcome.model_copy(update={"kept": dict(kept)})
    if isinstance(outcome, Cancelled):
        return outcome.model_copy(update={"kept": dict(kept), "rest": rest})
    return outcome


class QuestionRegistry:
    """The pending questions of one server process, by id. Use it inside the server's event loop
    (deadlines and retention are timers on that loop). A `recorder` hears of every question from
    its creation to its end, which is the one place every transport goes through."""

    def __init__(
        self,
        *,
        retention_seconds: float = RETENTION_SECONDS,
        recorder: QuestionRecorder | None = None,
    ) -> None:
        self.retention_seconds = retention_seconds
        self.recorder: QuestionRecorder = recorder or Recorders()
        self._questions: dict[str, PendingQuestion] = {}

    def __len__(self) -> int:
        return len(self._questions)

    def create(self, interaction: Interaction, transport: TransportName) -> PendingQuestion:
        """A new pending question with an unguessable id; it times out by itself at its deadline."""
        question = PendingQuestion(secrets.token_hex(ID_BYTES), interaction, transport, self)
        self._questions[question.id] = question
        self.recorder.asked(question)
        question.on_finish(self.recorder.ended)
        return question

    def settle(
        self, interaction: Interaction, outcome: FromAnswersFile | NobodyAsked
    ) -> SettledQuestion:
        """A question that ends as it is asked, shown nowhere: recorded, never kept here (no
        session waits on it)."""
        question = SettledQuestion(secrets.token_hex(ID_BYTES), interaction, outcome)
        self.recorder.asked(question)
        self.recorder.ended(question)
        return question

    def get(self, question_id: str) -> PendingQuestion | None:
        return self._questions.get(question_id)

    def pop(self, question_id: str) -> PendingQuestion | None:
        """Remove and return the question: consuming it (a poll), or dropping it after retention."""
        return self._questions.pop(question_id, None)

    def unfinished(self) -> list[PendingQuestion]:
        """The questions not finished yet, newest first."""
        questions = (question for question in self._questions.values() if question.outcome is None)
        return sorted(questions, key=lambda question: question.started, reverse=True)
