"""What ties one live question to the store several instances share: it follows every change said
of the question here and writes it there, in the order they were made; it claims the question for
a terminal; and it ends it as the store decides (a question ends once, whatever the number of
instances)."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, assert_never

from provide_choice._contract._outcomes import Ending
from provide_choice._question._endings import final, keeps
from provide_choice._question._followers import Change
from provide_choice._question._pending import PendingQuestion
from provide_choice._question._store import QuestionStore, Snapshot, encode_kept
from provide_choice._question._writes import Write, Writes


class Sharing:
    """The shared side of `question`, kept in `store` (the question's `SharedSide`): from its
    creation on, it follows every change said of the question (`on_said`)."""

    def __init__(self, question: PendingQuestion, store: QuestionStore, retention: float) -> None:
        self.question = question
        self.store = store
        self.retention = retention
        self.ending = False
        """An ending is on its way to the store (the question ends when the store says how)."""
        self._writes = Writes(self._keys_expire, lambda: store.problem)
        self._hearing = False
        """What changes now was heard from the store (`adopt`): it is not written back."""
        question.on_said(self._said)

    @property
    def problem(self) -> str | None:
        return self.store.problem

    def put(self, write: Write) -> None:
        """Make `write` after every write put before it (the question itself, first)."""
        self._writes.put(write)

    def save_settings(self, changes: Mapping[str, Any]) -> None:
        """Save these settings for later questions, after the question's earlier writes."""
        self._writes.put(lambda: self.store.save_settings(changes))

    async def attach(self) -> bool:
        return await self.store.attach(self.question.id) and self.question.status == "pending"

    def finish(self, outcome: Ending) -> bool:
        """Write the ending, after every earlier write, trying again while the store is away;
        False when an ending is on its way already."""
        if self.ending:
            return False
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

    def adopt(self, stored: Snapshot) -> None:
        """What the store holds of the question now, as written by another instance: its settings,
        deadline, address, kept answers, page, status, whether it was shown or touched, then its
        ending, if it has one. The question follows it here; nothing of it is written back."""
        question, self._hearing = self.question, True
        try:
            question.interaction = replace(question.interaction, settings=stored.settings)
            deadline = time.monotonic() + stored.seconds_left
            if abs(deadline - question.interaction.deadline) > 0.5:
                question.move_deadline(deadline)
            question.url, question.kept = stored.url, dict(stored.kept)
            question.view = dict(stored.view)
            if stored.status == "attached" and question.status == "pending":
                question.status = "attached"
            if stored.touched:
                question.touch()
            if stored.shown:
                question.mark_shown()
        finally:
            self._hearing = False
        question.changed.set()
        if stored.outcome is not None:
            question.end(stored.outcome)
        question.tell_listeners()

    def _said(self, question: PendingQuestion, change: Change) -> None:
        """Write what changed, as the store keeps it, after every earlier write."""
        if self._hearing:
            return
        changes: dict[str, str] = {change: _field(question, change)}
        self._writes.put(lambda: self.store.update(question.id, changes))

    def _keys_expire(self) -> float:
        """When the store forgets the question anyway (its deadline and the poll grace)."""
        return time.time() + self.question.seconds_left() + self.retention


def _field(question: PendingQuestion, change: Change) -> str:
    """What the store keeps of `change` now, as its text field (as `Snapshot.fields` writes it)."""
    match change:
        case "shown" | "touched":
            return "1"
        case "url":
            return question.url or ""
        case "deadline":  # on the wall clock: every instance reads it
            return repr(time.time() + question.seconds_left())
        case "settings":
            return question.settings.model_dump_json()
        case "kept":
            return encode_kept(question.kept)
        case "view":
            return json.dumps(question.view)
    assert_never(change)


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
