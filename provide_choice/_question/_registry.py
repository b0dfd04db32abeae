"""The open questions of one server process, by id: the questions it asked, and, with a shared store
(`serve --http --redis`), a live copy of every question of another instance it serves (a page, a
poll, a cancel, a retried call).

The store is the truth then: a question asked here is written there before it is shown; one asked
elsewhere is read from there when a request names it (`fetch`); every instance hears, through the
store, when a question it holds ended or changed elsewhere (`heard`), and reads again
what it holds when the store comes back after a while away (`reconnected`).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from provide_choice._contract._batch import Asked
from provide_choice._contract._outcomes import Ending, FromAnswersFile, NobodyAsked
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import TransportName
from provide_choice._question._interaction import Interaction
from provide_choice._question._pending import PendingQuestion
from provide_choice._question._sharing import Sharing, snapshot_of
from provide_choice._question._store import EventKind, QuestionStore, Snapshot, StoreUnavailable
from provide_choice._settings_file import load_settings
from provide_choice._test_clock import follow

ID_BYTES = 24
"""192 random bits, well above the 128 a session id must carry. Written in hex, not urlsafe base64:
an id starting with "-" would read as an option on the `choice-terminal --session <id>` line."""
ID_FORM = re.compile(f"[0-9a-f]{{{ID_BYTES * 2}}}")

RETENTION_SECONDS = 600.0
"""How long a finished question waits to be consumed before it is dropped (in a shared store too:
a question's keys expire this long after its deadline)."""


READ_AGAIN_SECONDS = 1.0
"""How often a question is read again while the store it is kept in does not answer."""


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
    """Several recorders told of the same questions, in order (the history, the alerts). None at
    all for a server embedded in a test, or for the copy of a question another instance asked
    and records."""

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


def skip(question: PendingQuestion, seconds: float) -> None:
    """Move the question's own time `seconds` forward, as a test's clock does (`_test_clock`): it
    started, and ends, that much earlier, through the step a timeout override takes; past its
    deadline it times out at once, through its own timer. Its surfaces hear of it at once, as of a
    change made elsewhere: an open page's countdown follows now, not at its next periodic state."""
    question.started -= seconds
    question.move_deadline(question.interaction.deadline - seconds)
    question.tell_listeners()


class QuestionRegistry:
    """The pending questions of one server process, by id. Use it inside the server's event loop
    (deadlines and retention are timers on that loop). A `recorder` hears of every question asked
    here from its creation to its end, which is the one place every transport goes through; a
    `store` shares the questions with every instance that uses it."""

    def __init__(
        self,
        *,
        retention_seconds: float = RETENTION_SECONDS,
        recorder: QuestionRecorder | None = None,
        store: QuestionStore | None = None,
    ) -> None:
        self.retention_seconds = retention_seconds
        self.recorder: QuestionRecorder = recorder or Recorders()
        self.store = store
        self._questions: dict[str, PendingQuestion] = {}
        self._shared: dict[str, Sharing] = {}
        """The sharing of each question held here, with a shared store."""
        self._loading: dict[str, asyncio.Future[PendingQuestion | None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._listening = False

    def __len__(self) -> int:
        return len(self._questions)

    def create(self, interaction: Interaction, transport: TransportName) -> PendingQuestion:
        """A new pending question with an unguessable id; it times out by itself at its deadline.
        With a shared store it is written there first (`await question.stored()` before showing
        it, so that every instance finds it)."""
        self._listen()
        question = self._new(secrets.token_hex(ID_BYTES), interaction, transport, self.recorder)
        sharing = self._shared.get(question.id)
        if sharing is not None:  # its first write: it is kept there before anything is said of it
            add, new = sharing.store.add, snapshot_of(question)
            sharing.put(lambda: add(new))
        self.recorder.asked(question)
        question.on_finish(self.recorder.ended)
        # A test may move the clock of the questions asked here (a live copy of one asked on
        # another instance follows that one's moves through the store).
        stop_following = follow(lambda seconds: skip(question, seconds))
        question.on_finish(lambda _ended: stop_following())
        return question

    def _new(
        self,
        question_id: str,
        interaction: Interaction,
        transport: TransportName,
        recorder: QuestionRecorder,
        *,
        started: float | None = None,
    ) -> PendingQuestion:
        """A question held here from now on, dropped `retention_seconds` after it ends unless
        consumed first; with a shared store, its sharing follows it from now on."""
        question = PendingQuestion(question_id, interaction, transport, recorder, started=started)
        if self.store is not None:
            sharing = Sharing(question, self.store, self.retention_seconds)
            question.share_with(sharing)
            self._shared[question_id] = sharing
        self._questions[question_id] = question
        question.on_finish(self._drop_later)
        return question

    def _drop_later(self, question: PendingQuestion) -> None:
        asyncio.get_running_loop().call_later(self.retention_seconds, self.pop, question.id)

    def settle(
        self, interaction: Interaction, outcome: FromAnswersFile | NobodyAsked
    ) -> SettledQuestion:
        """A question that ends as it is asked, shown nowhere: recorded, never kept here nor in a
        shared store (no session waits on it)."""
        question = SettledQuestion(secrets.token_hex(ID_BYTES), interaction, outcome)
        self.recorder.asked(question)
        self.recorder.ended(question)
        return question

    def get(self, question_id: str) -> PendingQuestion | None:
        """The question with this id that this process holds now."""
        return self._questions.get(question_id)

    async def fetch(self, question_id: str) -> PendingQuestion | None:
        """The question with this id: this process's, else, with a shared store, the store's (from
        now on held here too). None for an id nobody asked, or one gone. Raises
        `StoreUnavailable` while the store cannot be reached."""
        question = self._questions.get(question_id)
        if question is not None or self.store is None or not ID_FORM.fullmatch(question_id):
            return question
        loading = self._loading.get(question_id)
        if loading is None:  # one read per id, however many requests name it at once
            loading = self._loading[question_id] = asyncio.ensure_future(self._load(question_id))
            loading.add_done_callback(lambda _done: self._loading.pop(question_id, None))
        return await asyncio.shield(loading)

    def pop(self, question_id: str) -> PendingQuestion | None:
        """Stop holding the question here (dropped after retention, or consumed)."""
        self._shared.pop(question_id, None)
        return self._questions.pop(question_id, None)

    def forget(self, question: PendingQuestion) -> None:
        """Stop holding a question that could not be kept: no write of it still on its way is
        made (its deadline's timer stops when it ends)."""
        sharing = self._shared.get(question.id)
        self.pop(question.id)
        if sharing is not None:
            sharing.cancel()

    async def consume(self, question: PendingQuestion) -> bool:
        """Take a finished question's outcome: True for the one call that does, on every instance
        (sessions are single-use). Here it is dropped then; a shared store keeps it a while, so
        that its pages, on any instance, still show how it ended. Raises `StoreUnavailable` while
        the store cannot say."""
        if self.store is None:
            return self.pop(question.id) is not None
        return await self.store.consume(question.id)

    async def asked_as(self, asked: Asked) -> list[PendingQuestion]:
        """The questions not finished yet that asked exactly `asked`, newest first: on every
        instance, with a shared store."""
        if self.store is None:
            local = [question for question in self._questions.values() if question.outcome is None]
            same = [question for question in local if question.interaction.asked == asked]
            return sorted(same, key=lambda question: question.started, reverse=True)
        self._listen()
        kept = await self.store.questions()
        return [
            self._held(stored)
            for stored in kept
            if stored.outcome is None and stored.asked == asked
        ]

    async def person_settings(self) -> InteractionSettings:
        """The person's saved settings: this machine's settings file, with every change the
        person made through any instance of a shared store over it. Raises `StoreUnavailable`."""
        saved = load_settings()
        if self.store is None:
            return saved
        return await self.store.settings(saved)

    def heard(self, kind: EventKind, question_id: str, outcome: Ending | None) -> None:
        """The store says a question ended, or changed, on some instance."""
        question = self._questions.get(question_id)
        if question is None:
            return
        if kind == "finished" and outcome is not None:
            question.end(outcome)
        else:
            self._spawn(self._read_again(question))

    def reconnected(self) -> None:
        """The store is back: whatever happened meanwhile is read again for every question held."""
        for question in list(self._questions.values()):
            if question.outcome is None:
                self._spawn(self._read_again(question))

    def health_changed(self) -> None:
        for question in list(self._questions.values()):
            question.tell_listeners()

    async def _load(self, question_id: str) -> PendingQuestion | None:
        assert self.store is not None
        self._listen()
        stored = await self.store.load(question_id)
        return None if stored is None else self._held(stored)

    def _held(self, stored: Snapshot) -> PendingQuestion:
        """The question held here for `stored`: the one already held, else a new live copy."""
        question = self._questions.get(stored.id)
        if question is not None:
            return question
        deadline = time.monotonic() + stored.seconds_left
        interaction = Interaction(
            stored.asked, stored.settings, deadline, stored.note, stored.client
        )
        started = time.monotonic() - (time.time() - stored.started)
        question = self._new(stored.id, interaction, stored.transport, Recorders(), started=started)
        self._shared[stored.id].adopt(stored)
        return question

    async def _read_again(self, question: PendingQuestion) -> None:
        """Read what the store holds of `question` now, trying again while the store is away (it
        may answer the listener before every pooled connection is back) and the question waits.
        What this instance said of it lands first, and it is read again when more was said while it
        was read: a read older than what was said here would undo it here."""
        assert self.store is not None
        sharing = self._shared.get(question.id)
        if sharing is None:
            return  # no longer held here
        while True:
            try:
                await question.stored()
                stored = await self.store.load(question.id)
                if not sharing.busy:
                    break
            except StoreUnavailable:
                if question.outcome is not None or question.seconds_left() <= 0:
                    return  # ended meanwhile, or its own writes end it at its deadline
                await asyncio.sleep(READ_AGAIN_SECONDS)
        if stored is not None:
            sharing.adopt(stored)

    def _listen(self) -> None:
        if self.store is not None and not self._listening:
            self._listening = True
            self.store.listen(self)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
