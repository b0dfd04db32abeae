"""Pending questions: a question asked in one call and answered later, maybe after several calls.

Every transport shows a question that may outlive the MCP call that asked it: a call waits at most
`serve --max-wait` seconds, then the agent polls with the question's id. So the question lives here:
created with its deadline, shown by a transport (maybe at an address, maybe attached by a terminal),
finished exactly once (answer, cancel, or the deadline), then consumed by the call that returns the
outcome. Nothing here imports Starlette: the bridge serves these, it does not own them.

Memory per pending question is the `Interaction` plus one timer handle, never a task (but, with a
shared store, its writes on their way there): the deadline is a `loop.call_later`, and its registry
drops a finished question never consumed after a while, so the registry cannot grow without bound.

With a shared store (`serve --http --redis`), the same object is each instance's live copy of a
question the store keeps: its sharing (`_sharing.Sharing`) follows every change said of it here and
writes it there (in order, retried while the store is away), the store decides who claims it and
who ends it (`SharedSide`), and a change or an ending made on another instance arrives through the
registry (`Sharing.adopt`, `end`). Transports see the same methods either way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from provide_choice._contract._outcomes import Answered, Ending, TimedOut
from provide_choice._contract._setting_changes import apply_changes
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import TransportName
from provide_choice._question._endings import final
from provide_choice._question._followers import Change, Followers
from provide_choice._question._interaction import Interaction
from provide_choice._question._store import QuestionStatus
from provide_choice._settings_file import save_changes

Callback = Callable[["PendingQuestion"], object]


class Watcher(Protocol):
    """Told when a question is in front of the person, and when its address or deadline moves
    (the registry's `QuestionRecorder`)."""

    def shown(self, question: PendingQuestion) -> None: ...

    def changed(self, question: PendingQuestion) -> None: ...


class SharedSide(Protocol):
    """What only a store several instances share decides for a question (`_sharing.Sharing`, which
    also follows every change said of it): who claims it, how it ends, the settings saved for
    later questions, and whether everything said of it has landed there."""

    @property
    def problem(self) -> str | None:
        """Why the store cannot be reached now; None while it can."""

    async def attach(self) -> bool: ...

    def finish(self, outcome: Ending) -> bool: ...

    async def settle(self, outcome: Ending) -> bool: ...

    def save_settings(self, changes: Mapping[str, Any]) -> None: ...

    async def landed(self) -> None: ...


class PendingQuestion:
    """One question between its creation and its consumption. Create through `QuestionRegistry`."""

    def __init__(
        self,
        question_id: str,
        interaction: Interaction,
        transport: TransportName,
        recorder: Watcher,
        *,
        started: float | None = None,
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
        self.view: dict[str, Any] = {}
        """What its page keeps (the drafts, the hidden options): kept here so that a page served
        by another instance shows the same (`remember`)."""
        self.started = time.monotonic() if started is None else started
        self.shown = False
        """Whether it is in front of the person yet (`mark_shown`)."""
        self.touched = False
        """Whether the person did anything with it yet (`touch`): the alerts it waits for are
        then no longer needed."""
        self.changed = asyncio.Event()
        """Set when its address, its deadline or the shared store's health changes: the waiting
        call follows at once, not at its next progress heartbeat. Whoever waits clears it."""
        self._recorder = recorder
        self._sharing: SharedSide | None = None
        self._followers: Followers[PendingQuestion] = Followers()
        self._timer = self._call_at_deadline()

    def share_with(self, sharing: SharedSide) -> None:
        """From now on the store several instances share decides its claim and its ending."""
        self._sharing = sharing

    async def attach(self) -> bool:
        """Claim the question for one surface (a `choice-terminal`, which shows it): once, on every
        instance; a second claim gets False (HTTP 409): no two people answer one question."""
        if self.status != "pending":
            return False
        if self._sharing is not None and not await self._sharing.attach():
            return False
        self.status = "attached"
        self.mark_shown()
        return True

    def mark_shown(self) -> None:
        """The question is in front of the person now (its page opened, a terminal drew it, the
        client has it): its alerts go from here. The first call counts, on every instance."""
        if self._shown():
            self._followers.said(self, "shown")

    def touch(self) -> None:
        """The person did something with the question (a key in its terminal, a change on its
        page): they know it waits (on every instance, with a shared store)."""
        if not self.touched:
            self.touched = True
            self._followers.said(self, "touched")

    def _shown(self) -> bool:
        """Mark it shown, telling its recorder: whether it was not yet."""
        if self.shown or self.status == "finished":
            return False
        self.shown = True
        self._recorder.shown(self)
        return True

    def show_at(self, url: str) -> None:
        """The transport shows the question at `url` (a page, a hand-off session)."""
        self.url = url
        self.changed.set()
        self._recorder.changed(self)
        self._followers.said(self, "url")

    def extend_deadline(self, seconds_from_now: float) -> None:
        """Give the question at least `seconds_from_now` more (the person set a timeout override
        while looking at it); a deadline already further away stays."""
        deadline = time.monotonic() + seconds_from_now
        if deadline > self.interaction.deadline:
            self.move_deadline(deadline)

    def move_deadline(self, deadline: float) -> None:
        """Move its deadline to `deadline` (a `time.monotonic()` value), unless it has ended."""
        if self.status == "finished":
            return
        self.interaction = replace(self.interaction, deadline=deadline)
        self._timer.cancel()
        self._timer = self._call_at_deadline()
        self.changed.set()
        self._recorder.changed(self)
        self._followers.said(self, "deadline")

    @property
    def settings(self) -> InteractionSettings:
        """The person's settings in force for this question now."""
        return self.interaction.settings

    @property
    def store_problem(self) -> str | None:
        """Why the shared store cannot be reached now (surfaces say so); None while it can."""
        return None if self._sharing is None else self._sharing.problem

    async def apply_settings(self, changes: object) -> InteractionSettings:
        """The person changed settings while the question is shown (on its page, in a terminal):
        the one way a surface changes them. Validates `changes` (an object of setting names to
        new values; `ChoicesError` says what is allowed), applies them to this question at once
        (the timeout action at the deadline is the one set last; a timeout override gives it at
        least that long), saves only them for later questions and other surfaces (in the
        settings file, off the event loop, or in the shared store, after the question's earlier
        writes), and returns the settings now in force."""
        settings, changed = apply_changes(self.interaction.settings, changes)
        self.touch()
        self.interaction = replace(self.interaction, settings=settings)
        override = changed.get("timeout_override_seconds")
        if override:
            self.extend_deadline(override)
        self._followers.said(self, "settings")
        if self._sharing is None:
            await asyncio.to_thread(save_changes, changed)
        else:
            self._sharing.save_settings(changed)
        self._followers.changed(self)  # saved: every surface of it here shows them now
        return self.interaction.settings

    def keep(self, question_id: str, answer: Answered | None) -> None:
        """A surface showing a batch saw the person answer one of its questions (None: the answer
        was taken back). What is kept when the batch ends is checked again by `normalize_batch`."""
        if answer is None:
            self.kept.pop(question_id, None)
        else:
            self.kept[question_id] = answer
        self._followers.said(self, "kept")

    def remember(self, view: dict[str, Any]) -> None:
        """What a page of the question keeps now, for every page of it, on every instance."""
        self.view = view
        self._followers.said(self, "view")

    def finish(self, outcome: Ending) -> bool:
        """Record how the question ended. The first call wins; a later one returns False (HTTP 409).
        A batch cancelled or timed out keeps the answers given so far, and its other questions
        follow the person's timeout action in force then. With a shared store the ending is
        written there (and tried again while the store is away); the store decides whether it
        is the first, and the question ends when it says how: use `settle` to hear which."""
        if self.status == "finished":
            return False
        if self._sharing is not None:
            return self._sharing.finish(outcome)
        self.end(final(self.interaction, outcome, self.kept, self.settings.timeout_action))
        return True

    async def settle(self, outcome: Ending) -> bool:
        """`finish`, returning whether `outcome` is how the question ended on every instance (two
        answers racing through two instances: one wins, one gets False). Raises
        `StoreUnavailable`, with nothing changed, while the shared store is away."""
        if self._sharing is None or self.status == "finished":
            return self.finish(outcome)
        return await self._sharing.settle(outcome)

    async def stored(self) -> None:
        """Return once the shared store holds everything said of the question so far (a new
        question, before it is shown: another instance may serve its page). Raises
        `StoreUnavailable` when it cannot."""
        if self._sharing is not None:
            await self._sharing.landed()

    def end(self, outcome: Ending) -> None:
        """It ended, with `outcome`: here, or as another instance said. Once."""
        if self.status == "finished":
            return
        self.status = "finished"
        self.outcome = outcome
        self._timer.cancel()
        self._followers.ended(self, outcome)

    def on_finish(self, callback: Callback) -> None:
        """Call `callback(question)` once the question finishes (at once when it already has)."""
        if self.status == "finished":
            callback(self)
        else:
            self._followers.on_end(callback)

    def on_change(self, callback: Callback) -> None:
        """Call `callback(question)` whenever it changed elsewhere (another instance, the store) or
        its settings changed here, once saved: every surface showing it follows at once."""
        self._followers.on_change(callback)

    def on_said(self, callback: Callable[[PendingQuestion, Change], object]) -> None:
        """Call `callback(question, change)` whenever `change` is made to it here (its sharing
        writes each one to the shared store)."""
        self._followers.on_said(callback)

    def tell_listeners(self) -> None:
        """It changed elsewhere, or the store's health did: its surfaces and waiting call follow."""
        self.changed.set()
        self._followers.changed(self)

    async def wait(self) -> Ending:
        """The outcome, once there is one: an answer, a cancel, or `TimedOut` at the deadline.
        Cancelling the wait leaves the question as it is, so a later `wait` still gets the outcome."""
        return self.outcome if self.outcome is not None else await self._followers.wait()

    def seconds_left(self) -> float:
        """Time to the deadline, never negative. Other processes get this, not the deadline itself:
        monotonic clocks are not comparable between processes."""
        return max(self.interaction.deadline - time.monotonic(), 0.0)

    def _call_at_deadline(self) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(self.seconds_left(), self._expire)

    def _expire(self) -> None:
        self.finish(TimedOut(action=self.interaction.settings.timeout_action))
