"""Where open questions are kept: in the server's memory (the registry's own), or in a store several
servers share (`serve --http --redis URL`: `_redis_store.RedisStore`), so that any instance serves
any question's page, poll and cancel, and one killed loses nothing.

A shared store holds what every instance must agree on (`Snapshot`: what was asked, the settings
and the deadline in force, the address, the answers a batch kept, the page's drafts, and the
outcome) and decides the two races itself: a question ends once (`finish`, one transaction), and
a session is fetched once (`consume`). Each instance keeps a live `PendingQuestion` for every
question it works with, and hears from the store when one ended or changed elsewhere (`Events`).
Nothing here imports a store's client library.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, get_args

from provide_choice._contract._batch import Asked, BatchRequest, is_batch
from provide_choice._contract._meaning import ENDING_ADAPTER
from provide_choice._contract._outcomes import Answered, Ending
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import TransportName
from provide_choice._question._interaction import AgentClient

QuestionStatus = Literal["pending", "attached", "finished"]
STATUSES: dict[str, QuestionStatus] = {status: status for status in get_args(QuestionStatus)}
EventKind = Literal["finished", "changed"]


class StoreUnavailable(Exception):
    """The shared store cannot be reached now. The message names it (its password as `***`) and
    says why; whatever was not written waits, and nothing answered is lost."""


@dataclass(frozen=True)
class Snapshot:
    """One question as a shared store keeps it. Times are on the wall clock (seconds since the
    epoch): every instance reads them, and monotonic clocks differ between processes."""

    id: str
    transport: TransportName
    asked: Asked
    settings: InteractionSettings
    deadline: float
    started: float
    note: str | None = None
    client: AgentClient | None = None
    url: str | None = None
    status: QuestionStatus = "pending"
    outcome: Ending | None = None
    kept: Mapping[str, Answered] = field(default_factory=dict)
    view: Mapping[str, Any] = field(default_factory=dict)
    """What a page of the question keeps (drafts, hidden options), as the page writes it."""
    ended: float | None = None
    """When it ended."""
    shown: bool = False
    """Whether it was in front of the person, on any instance (the alerts of the one that asked
    it go from then)."""
    touched: bool = False
    """Whether the person did anything with it, on any instance (no alert is needed then)."""

    @property
    def seconds_left(self) -> float:
        return max(self.deadline - time.time(), 0.0)

    def fields(self) -> dict[str, str]:
        """The snapshot as text fields (a Redis hash); `from_fields` reads them back."""
        client = None if self.client is None else list(self.client)
        fixed = {
            "transport": self.transport,
            "asked": self.asked.model_dump(mode="json", by_alias=True),
            "started": self.started,
            "note": self.note,
            "client": client,
        }
        return {
            "fixed": json.dumps(fixed),
            "settings": self.settings.model_dump_json(),
            "deadline": repr(self.deadline),
            "url": self.url or "",
            "status": self.status,
            "outcome": ""
            if self.outcome is None
            else ENDING_ADAPTER.dump_json(self.outcome).decode(),
            "kept": encode_kept(self.kept),
            "view": json.dumps(dict(self.view)),
            "shown": "1" if self.shown else "",
            "touched": "1" if self.touched else "",
        }

    @classmethod
    def from_fields(cls, question_id: str, fields: Mapping[str, str]) -> Snapshot:
        """Read what `fields` wrote. Raises `ValueError` (or a pydantic `ValidationError`, one)
        for fields that are not a snapshot's."""
        fixed = json.loads(fields["fixed"])
        client = fixed.get("client")
        asked_data = fixed["asked"]
        asked: Asked = (
            BatchRequest.model_validate(asked_data)
            if is_batch(asked_data)
            else ProvideChoiceRequest.model_validate(asked_data)
        )
        outcome = fields.get("outcome") or ""
        status = STATUSES.get(fields.get("status", ""))
        if status is None:
            raise ValueError(f"unknown status {fields.get('status')!r}")
        return cls(
            id=question_id,
            transport=fixed["transport"],
            asked=asked,
            settings=InteractionSettings.model_validate_json(fields["settings"]),
            deadline=float(fields["deadline"]),
            started=float(fixed["started"]),
            note=fixed.get("note"),
            client=None if client is None else AgentClient(*client),
            url=fields.get("url") or None,
            status=status,
            outcome=ENDING_ADAPTER.validate_json(outcome) if outcome else None,
            kept=decode_kept(fields.get("kept", "{}")),
            view=json.loads(fields.get("view") or "{}"),
            ended=float(fields["ended"]) if fields.get("ended") else None,
            shown=bool(fields.get("shown")),
            touched=bool(fields.get("touched")),
        )


def encode_kept(kept: Mapping[str, Answered]) -> str:
    return json.dumps({key: answer.model_dump(mode="json") for key, answer in kept.items()})


def decode_kept(text: str) -> dict[str, Answered]:
    return {key: Answered.model_validate(value) for key, value in json.loads(text).items()}


Decide = Callable[[Snapshot], Ending]
"""How a question ends, given what the store holds of it when it ends (a batch keeps the answers
given so far, and its other questions follow the timeout action in force then)."""


class Events(Protocol):
    """What a store tells the registry that listens to it."""

    def heard(self, kind: EventKind, question_id: str, outcome: Ending | None) -> None:
        """A question ended (`outcome`), or changed, on some instance."""

    def reconnected(self) -> None:
        """The store is reachable again after a while away: what was missed must be read."""

    def health_changed(self) -> None:
        """The store became unreachable, or reachable again (`QuestionStore.problem`)."""


class QuestionStore(Protocol):
    """Questions several servers share. Every method raises `StoreUnavailable` while the store
    cannot be reached."""

    @property
    def problem(self) -> str | None:
        """Why the store cannot be reached now; None while it can."""

    def listen(self, events: Events) -> None:
        """Tell `events` from now on what happens on every instance (in the event loop)."""

    async def add(self, snapshot: Snapshot) -> None:
        """Keep a new question (it is waiting)."""

    async def load(self, question_id: str) -> Snapshot | None:
        """The question, or None when the store has no such question (any more)."""

    async def update(self, question_id: str, changes: Mapping[str, str]) -> None:
        """Change some of a question's `Snapshot.fields` (not its outcome), and tell every
        instance."""

    async def finish(self, question_id: str, decide: Decide | Ending) -> tuple[bool, Ending] | None:
        """End the question with `decide(snapshot)` (or with `decide`, an outcome that depends on
        nothing stored) unless it has ended: (True, that outcome) for the one call that ended it,
        (False, the outcome it has) for every other, None when the store has no such question.
        Atomic, whatever the number of instances."""

    async def attach(self, question_id: str) -> bool:
        """Claim a pending question for one surface (a terminal); True for one claim only."""

    async def consume(self, question_id: str) -> bool:
        """Mark a finished question's outcome fetched: True for one call only, on every instance
        (its pages still show how it ended until it expires)."""

    async def questions(self) -> list[Snapshot]:
        """Every question kept, waiting or ended (until its keys expire), on every instance,
        newest first."""

    async def settings(self, base: InteractionSettings) -> InteractionSettings:
        """`base` with every setting the person saved in the store over it."""

    async def save_settings(self, changes: Mapping[str, Any]) -> None:
        """Save only these settings (each one alone: two surfaces never undo each other)."""

    async def aclose(self) -> None:
        """Stop listening and close the connections."""
