"""The vocabulary of the conformance table: what a person does, what the answer must be, and on
which surfaces a case runs.

A case is one question (the request as an agent sends it), the person's settings when they matter,
what the person does in words that fit every surface, and the response expected. Every surface's
driver translates the same actions into its own gestures (clicks and typing on the page, keys in
a terminal, the content of the client's form), and every surface must return the expected
response, except for `transport`, `url` and `session_id`, which say where it was asked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

import pytest

Surface = Literal["web", "terminal", "terminal_handoff", "elicitation", "app", "telegram", "slack"]
"""A surface is named by the `transport` its responses name."""
SURFACES: dict[Surface, str] = {
    "web": "web (the page, in Chromium)",
    "terminal": "terminal (the server's)",
    "terminal_handoff": "terminal_handoff (the hand-off)",
    "elicitation": "elicitation (the client's dialog)",
    "app": "app (in the conversation)",
    "telegram": "telegram (the linked chat)",
    "slack": "slack (the channel)",
}
"""How the table heads each surface's column."""
REQUESTED: dict[Surface, str] = {
    "web": "web",
    "terminal": "terminal",
    "terminal_handoff": "terminal",
    "elicitation": "elicitation",
    "app": "app",
    "telegram": "telegram",
    "slack": "slack",
}
"""The request's `transport` that asks on each surface (the terminal over stdio is the hand-off)."""
WHERE = ("transport", "url", "session_id")
"""The selection fields that say where the question was asked: the only ones allowed to differ."""


@dataclass(frozen=True)
class Gesture:
    """What the person does, written as the table shows it: `Choose("lite")`."""

    def __str__(self) -> str:
        values = (getattr(self, field.name) for field in fields(self))
        shown = ", ".join(json.dumps(value, ensure_ascii=False) for value in values)
        return f"{type(self).__name__}({shown})"


# A script that ends without Submit, Cancel or Wait ends with a choice that sends the answer by
# itself (a single choice that submits on selection).


@dataclass(frozen=True)
class Choose(Gesture):
    """Choose this option in a list where one may be chosen (in single-submit, this sends)."""

    option_id: str


@dataclass(frozen=True)
class Toggle(Gesture):
    """Tick or untick this option in a list where several may be chosen."""

    option_id: str


@dataclass(frozen=True)
class Type(Gesture):
    """Type this as the answer (text_input) or as the own answer (hybrid)."""

    text: str


@dataclass(frozen=True)
class LeaveTextEmpty(Gesture):
    """Leave the text field as it is shown: empty, with the placeholder in it when it is shown (the
    client's form pre-fills it instead: a form has no placeholder)."""


@dataclass(frozen=True)
class NoteOn(Gesture):
    """Write a note on this option."""

    option_id: str
    text: str


@dataclass(frozen=True)
class OverallNote(Gesture):
    """Write a note on the whole question."""

    text: str


@dataclass(frozen=True)
class Submit(Gesture):
    """Send the answer as it stands."""


@dataclass(frozen=True)
class SubmitRefused(Gesture):
    """Try to send an answer the question does not allow: the surface refuses and says why, and
    the person goes on (the client's dialog sends it, and the server asks again)."""


@dataclass(frozen=True)
class Cancel(Gesture):
    """Cancel the question."""


@dataclass(frozen=True)
class Wait(Gesture):
    """Do nothing until the deadline passes."""


@dataclass(frozen=True)
class In(Gesture):
    """Do this in one question of a batch (named by its id)."""

    question_id: str
    action: Choose | Toggle | Type | LeaveTextEmpty | NoteOn

    def __str__(self) -> str:
        return f"In({json.dumps(self.question_id)}, {self.action})"


Action = (
    In
    | Choose
    | Toggle
    | Type
    | LeaveTextEmpty
    | NoteOn
    | OverallNote
    | Submit
    | SubmitRefused
    | Cancel
    | Wait
)
ENDINGS = (Submit, SubmitRefused, Cancel, Wait)
"""Actions after which the surface answers (or refuses)."""


@dataclass(frozen=True)
class Expected:
    """The response every surface must return, but for where it was asked."""

    action_status: str
    summary: str
    selected_ids: tuple[str, ...] = ()
    custom_input: str | None = None
    option_annotations: dict[str, str] = field(default_factory=dict)
    global_annotation: str | None = None
    placeholder_used: bool = False
    answers: tuple[dict[str, Any], ...] | None = None
    """A batch's `answers`, in question order."""

    def fields(self) -> dict[str, Any]:
        """The response as one flat object: `action_status` beside the selection's fields (and a
        batch's answers)."""
        flat = {
            "action_status": self.action_status,
            "selected_ids": list(self.selected_ids),
            "custom_input": self.custom_input,
            "option_annotations": self.option_annotations,
            "global_annotation": self.global_annotation,
            "placeholder_used": self.placeholder_used,
            "summary": self.summary,
        }
        return flat if self.answers is None else flat | {"answers": list(self.answers)}


@dataclass(frozen=True)
class OwnSummary:
    """The summary one surface gives instead of the expected one, and why it may."""

    summary: str
    reason: str


@dataclass(frozen=True)
class Case:
    """One row of the table."""

    id: str
    request: dict[str, Any]
    """The question as an agent sends it, without `transport` (each surface's driver adds it)."""
    actions: tuple[Action, ...]
    expected: Expected
    settings: dict[str, Any] = field(default_factory=dict)
    """The person's settings (`settings.json`) when the case needs any."""
    not_expressible: dict[Surface, str] = field(default_factory=dict)
    """Surfaces where a person cannot do this, and why."""
    differs_today: dict[Surface, str] = field(default_factory=dict)
    """Surfaces whose answer differs from the expected one today (issue 16), and how: a strict
    xfail, so that the fix turns it into a failure and the entry is removed."""
    own_summary: dict[Surface, OwnSummary] = field(default_factory=dict)
    """Surfaces whose summary says more than the others', as the documentation promises: the case runs
    there and expects that summary, the rest of the response unchanged."""
    not_yet: dict[Surface, str] = field(default_factory=dict)
    """Surfaces that do not show this yet (batches in the app, issue 18): skipped, saying so."""

    def __post_init__(self) -> None:
        surfaces = (*self.not_expressible, *self.differs_today, *self.own_summary, *self.not_yet)
        for surface in surfaces:
            assert surface in SURFACES, f"{self.id}: {surface!r} is not a surface"

    @property
    def questions(self) -> list[dict[str, Any]]:
        """A batch's questions (none for a single question)."""
        return list(self.request.get("questions", ()))

    def question(self, question_id: str) -> dict[str, Any]:
        (found,) = [item for item in self.questions if item["id"] == question_id]
        return found

    def options(self) -> dict[str, str]:
        """The question's options (a batch's: every question's): label by id."""
        lists = [
            self.request.get("options", ()),
            *(item.get("options", ()) for item in self.questions),
        ]
        return {option["id"]: option["label"] for options in lists for option in options}

    def label(self, option_id: str) -> str:
        return self.options()[option_id]


def params(cases: list[Case], surface: Surface) -> list[Any]:
    """The cases as pytest parameters for one surface: skipped where they cannot be expressed,
    a strict xfail where the surface differs today."""
    marked = []
    for case in cases:
        marks: list[Any] = []
        if surface in case.not_expressible:
            reason = f"not expressible on {SURFACES[surface]}: {case.not_expressible[surface]}"
            marks.append(pytest.mark.skip(reason=reason))
        elif surface in case.not_yet:
            reason = f"not yet on {SURFACES[surface]}: {case.not_yet[surface]}"
            marks.append(pytest.mark.skip(reason=reason))
        elif surface in case.differs_today:
            reason = f"issue 16: {case.differs_today[surface]}"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        marked.append(pytest.param(case, id=case.id, marks=marks))
    return marked


def asked_on(case: Case, surface: Surface) -> dict[str, Any]:
    """The request as the agent sends it to reach this surface."""
    return case.request | {"transport": REQUESTED[surface]}


def write_settings(home: Path, case: Case) -> None:
    """The person's settings for this case, and only those (the rest at their defaults)."""
    path = home / "settings.json"
    if case.settings:
        path.write_text(json.dumps(case.settings))
    else:
        path.unlink(missing_ok=True)


def assert_conforms(case: Case, surface: Surface, response: dict[str, Any]) -> None:
    """The response is the expected one, asked where the surface asks."""
    selection = response["selection"]
    assert selection["transport"] == surface, response
    fields = {"action_status": response["action_status"]} | {
        key: value for key, value in selection.items() if key not in WHERE
    }
    if "answers" in response:
        fields["answers"] = response["answers"]
    expected = case.expected.fields()
    if surface in case.own_summary:
        expected["summary"] = case.own_summary[surface].summary
    assert fields == expected


def rounds(actions: tuple[Action, ...]) -> list[tuple[Action, ...]]:
    """The script cut after each ending; a rest that ends in no ending is a choice that sends."""
    cut: list[tuple[Action, ...]] = []
    current: list[Action] = []
    for action in actions:
        current.append(action)
        if isinstance(action, ENDINGS):
            cut.append(tuple(current))
            current = []
    if current:
        cut.append(tuple(current))
    return cut


LEGEND = """\
A script that ends on `Choose` is a single choice that sends the answer by itself; the client's
dialog sends it with the form's own submit (a form cannot submit on selection). `LeaveTextEmpty`
leaves the text field as shown: empty with the placeholder in it on the page and in a terminal,
the placeholder pre-filled as the field's default in the client's form. `SubmitRefused` is an
answer the surface refuses, saying why; the client's dialog sends it and the server asks again.
In Telegram, `Choose` and `Toggle` press the option's button, `Type` is the text of a reply to the
question, `Submit` sends that reply (or presses Done when nothing was typed), and `SubmitRefused`
is Done refused in its answer (or, where only a reply can answer, no Done to press). In Slack,
`Choose` presses the option's button (or picks its radio button), `Toggle` ticks its box, `Type`
fills the message's text field, `Submit` presses Submit, and `SubmitRefused` is Submit refused in
a message only the person sees."""


def markdown_table(cases: list[Case]) -> str:
    """The table as markdown, then what its words mean: for its page of the site (docs/conformance.md) and the issue's note."""
    head = ["case", "request", "settings", "the person", "expected", *SURFACES.values()]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for case in cases:
        cells = [
            f"`{case.id}`",
            _code(_distinct(case.request)),
            _code(case.settings) if case.settings else "",
            ", ".join(str(action) for action in case.actions),
            _code(_expected(case.expected)),
            *(_cell(case, surface) for surface in SURFACES),
        ]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines) + "\n\n" + LEGEND


def _distinct(request: dict[str, Any]) -> dict[str, Any]:
    """What tells a request apart: its mode and whatever it sets beyond the title, prompt and
    options every case shares (a batch: each question's id, mode and own fields)."""
    shared = ("title", "prompt", "options", "preview")
    distinct = {key: value for key, value in request.items() if key not in shared}
    if "questions" in distinct:
        distinct["questions"] = [_distinct(item) for item in distinct["questions"]]
    return distinct


def _expected(expected: Expected) -> dict[str, Any]:
    """The expected response without the fields left at their empty values."""
    empty: dict[str, Any] = {
        "selected_ids": [],
        "custom_input": None,
        "option_annotations": {},
        "global_annotation": None,
        "placeholder_used": False,
    }
    return {key: value for key, value in expected.fields().items() if empty.get(key, 0) != value}


def _cell(case: Case, surface: Surface) -> str:
    if surface in case.not_expressible:
        return f"not expressible: {case.not_expressible[surface]}"
    if surface in case.not_yet:
        return f"not yet: {case.not_yet[surface]}"
    if surface in case.differs_today:
        return f"differs today (strict xfail): {case.differs_today[surface]}"
    if surface in case.own_summary:
        own = case.own_summary[surface]
        return f'runs; its summary is "{own.summary}": {own.reason}'
    return "runs"


def _code(value: dict[str, Any]) -> str:
    return f"`{json.dumps(value, ensure_ascii=False)}`"
