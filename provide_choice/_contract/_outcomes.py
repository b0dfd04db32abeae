"""How a question ends, and what a call replies: transport-neutral outcomes, as typed unions.

A question ends as an `Ending` (what a surface that shows it may report: an answer, a batch's
answers, a cancel, the deadline); a call replies with a `Reply`: an ending, or what the agent must
do to get one (run a command, poll again), or that nobody was asked. Typed unions, not a bag of
flags: `_response.normalize` turns each into the one response shape.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from provide_choice._contract._settings import TimeoutAction
from provide_choice._contract._transport_table import TransportName

Via = Annotated[TransportName | None, Field(exclude_if=lambda via: via is None)]
"""Where the person ended a question when that is not the transport it was asked on (an ending's
`via`: a transport that follows every question, Telegram, answered it); None: where it was asked.
Only the server sets it (a posted ending naming it is refused); left out of the JSON when None."""
Person = Annotated[str | None, Field(exclude_if=lambda person: person is None)]
"""Who answered (or cancelled), as a surface where several people may answer knows them ("ada
(U0ADA)" in Slack); None where the surface cannot tell (it is the person's own). Only the server
sets it, for that surface (a posted ending naming it is refused); kept in the history, never sent
to the agent; left out of the JSON when None."""


class Answered(BaseModel):
    """The person submitted: option ids and/or their own text, with optional notes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["answered"] = "answered"
    selected_ids: list[str] = Field(default_factory=list)
    custom_input: str | None = None
    option_annotations: dict[str, str] = Field(default_factory=dict)
    global_annotation: str | None = None
    placeholder_used: bool = False
    via: Via = None
    person: Person = None


class Cancelled(BaseModel):
    """The question was cancelled: by the person, or by the agent (its MCP client cancelled the
    call, or gave up waiting)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["cancelled"] = "cancelled"
    by: Literal["person", "agent"] = "person"
    detail: str | None = None
    """How the person cancelled, when the surface knows more (they declined the client's dialog)."""
    kept: dict[str, Answered] = Field(default_factory=dict)
    """A batch's questions the person had answered, by question id: kept in the response."""
    rest: TimeoutAction | None = None
    """A batch: what its unanswered questions return, the person's timeout action when it ended."""
    via: Via = None
    person: Person = None


class TimedOut(BaseModel):
    """The deadline passed; `action` is the person's configured timeout action at that moment."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["timeout"] = "timeout"
    action: TimeoutAction
    kept: dict[str, Answered] = Field(default_factory=dict)
    """A batch's questions the person had answered, by question id: kept in the response."""


class PendingLaunch(BaseModel):
    """The question waits in a hand-off session until the person runs `command` in a terminal."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["pending_terminal_launch"] = "pending_terminal_launch"
    session_id: str
    url: str
    command: str


class StillOpen(BaseModel):
    """The call waited as long as it may (`serve --max-wait`) and the question is still open: the
    agent calls again with `session_id` to keep waiting."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["pending"] = "pending"
    session_id: str
    seconds_left: float | None
    """None: not known here (the store that keeps the question cannot be read now)."""
    problem: str | None = None
    """Why the call could not wait longer, or read the question: its store cannot be reached."""


class BatchAnswered(BaseModel):
    """The person submitted a batch: an answer to each of its questions, by question id."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["answered_batch"] = "answered_batch"
    answers: dict[str, Answered]
    global_annotation: str | None = None
    via: Via = None
    person: Person = None


class NobodyAsked(BaseModel):
    """Nobody was asked, and the question ends at once: the server runs unattended, or the person
    is away. `reason` says which, `action` is the person's `unattended_action`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["unattended"] = "unattended"
    reason: str
    """Why, in words ("the server runs unattended (CI is set)")."""
    action: TimeoutAction


class FromAnswersFile(BaseModel):
    """A rule of the answers file answered, before anyone was asked: `answer` is what it says, a
    question's answer or a batch's; `file` is the file's name as given."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    answer: Answered | BatchAnswered
    file: str

    @property
    def note(self) -> str:
        """What ends the summary."""
        return f"(from the answers file {self.file})"


Ending = Annotated[Answered | BatchAnswered | Cancelled | TimedOut, Field(discriminator="kind")]
"""How a question ends; what a surface that shows it may report."""
Reply = Annotated[
    Answered | BatchAnswered | Cancelled | TimedOut | PendingLaunch | StillOpen | NobodyAsked,
    Field(discriminator="kind"),
]
"""What a call returns: how the question ended, or what the agent must do to get that."""
