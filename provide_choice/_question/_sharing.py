"""What ties one live question to the store several instances share: its writes, in the order they
were made; its claim by a terminal; and its ending, which the store decides (a question ends once,
whatever the number of instances)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from provide_choice._contract._outcomes import Ending
from provide_choice._question._endings import final, keeps
from provide_choice._question._store import QuestionStore, Snapshot
from provide_choice._question._writes import Write, Writes

if TYPE_CHECKING:
    from provide_choice._question._pending import PendingQuestion


class Sharing:
    """The shared side of `question`, kept in `store`."""

    def __init__(self, question: PendingQuestion, store: QuestionStore, retention: float) -> None:
        self.question = question
        self.store = store
        self.retention = retention
        self.ending = False
        """An ending is on its way to the store (the question ends when the store says how)."""
        self._writes = Writes(self._keys_expire, lambda: store.problem)

    def update(self, changes: Mapping[str, str]) -> None:
        question_id = self.question.id
        self._writes.put(lambda: self.store.update(question_id, changes))

    def put(self, write: Write) -> None:
        """Make `write` after every write put before it (the person's settings, say)."""
        self._writes.put(write)

    async def attach(self) -> bool:
        return await self.store.attach(self.question.id) and self.question.status == "pending"

    def finish(self, outcome: Ending) -> bool:
        """Write the ending, after every earlier write, trying again while the store is away."""
        self.ending = True
        self._writes.put(lambda: self._commit(outcome))
        return True

    async def settle(self, outcome: Ending) -> bool:
        """End the question now, once every earlier write has landed: whether `outcome` won."""
        if self.ending:
            return False
        self.ending = True
        try:
            await self._writes.landed()
            return await self._commit(outcome)
        finally:
            self.ending = False  # ended, or nothing changed (the store was away)

    async def landed(self) -> None:
        await self._writes.landed()

    @property
    def busy(self) -> bool:
        """Whether something said here has not reached the store yet."""
        return self._writes.busy

    def cancel(self) -> None:
        self._writes.cancel()

    async def _commit(self, outcome: Ending) -> bool:
        question = self.question

        def decide(stored: Snapshot) -> Ending:
            return final(
                question.interaction, outcome, dict(stored.kept), stored.settings.timeout_action
            )

        result = await self.store.finish(
            question.id, decide if keeps(question.interaction, outcome) else outcome
        )
        won, ended = (False, outcome) if result is None else result  # gone: ended long ago
        self.ending = False
        question.end(ended)
        return won

    def _keys_expire(self) -> float:
        """When the store forgets the question anyway (its deadline and the poll grace)."""
        return time.time() + self.question.seconds_left() + self.retention


def snapshot_of(question: PendingQuestion) -> Snapshot:
    """What the store keeps of `question`, its times on the wall clock."""
    interaction, now = question.interaction, time.time()
    return Snapshot(
        id=question.id,
        transport=question.transport,
        asked=interaction.asked,
        settings=interaction.settings,
        deadline=now + question.seconds_left(),
        started=now - (time.monotonic() - question.started),
        note=interaction.note,
        client=interaction.client,
        url=question.url,
        status=question.status,
        outcome=question.outcome,
        kept=dict(question.kept),
        view=dict(question.view),
        shown=question.shown,
        touched=question.touched,
    )
