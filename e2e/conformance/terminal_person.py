"""A case's actions as keys in a terminal showing the question: the server's own terminal and the
hand-off terminal show the same screens, so one person plays both."""

from __future__ import annotations

from typing import Any

import pexpect
from conformance import (
    Action,
    Cancel,
    Case,
    Choose,
    In,
    LeaveTextEmpty,
    NoteOn,
    OverallNote,
    Submit,
    SubmitRefused,
    Toggle,
    Type,
    Wait,
)
from provide_choice_harness import (
    CTRL_C,
    DOWN,
    ENTER,
    SPACE,
    UP,
    continue_with_settings,
    expect_plain,
)
from question_clock import forward

OWN_ANSWER = None
"""The list entry that leads to typing an own answer (hybrid), after the options."""
BACK = "\x1b[Z"
"""Shift-Tab: a batch's previous question."""


class QuestionKeys:
    """One question's gestures as keys, on its screens.

    It keeps track of the list's pointer the way a person's eyes do: the list opens on the first
    ticked entry (the defaults, or the answer given before), else the first option, and stays
    where it was after a note. A hybrid own answer is ticked on the list and typed on the screen
    that follows Enter."""

    def __init__(self, child: pexpect.spawn, request: dict[str, Any], case: Case) -> None:
        self.child = child
        self.case = case
        mode = request["selection_mode"]
        self.text_only = mode == "text_input"
        self.submits = mode == "single" and request.get("single_submit_mode", True)
        self.entries: list[str | None] = [option["id"] for option in request.get("options", ())]
        if mode == "hybrid":
            self.entries.append(OWN_ANSWER)
        self.checked: list[str | None] = list(request.get("default_selection_ids", []))
        self.pointer = 0
        self.own_answer: str | None = None
        self.opened()

    def opened(self) -> None:
        """The question's list is (again) on screen: its pointer is on the first ticked entry."""
        ticked = [entry for entry in self.entries if entry in self.checked]
        self.pointer = self.entries.index(ticked[0]) if ticked else 0

    def act(self, action: Action, last: bool) -> None:
        """One gesture; `last`: nothing follows on this screen (a choice that sends)."""
        match action:
            case Choose(option_id):
                self._move_to(option_id)
                # A choice that sends: a select list (in a batch it moves to the next question).
                self.child.send(ENTER if last or self.submits else SPACE)
                self.checked = [option_id]
            case Toggle(option_id):
                self._move_to(option_id)
                self.child.send(SPACE)
                self.checked = [e for e in self.checked if e != option_id] + (
                    [] if option_id in self.checked else [option_id]
                )
            case Type(text) if self.text_only:
                self.child.send(text)
            case Type(text):
                self._move_to(OWN_ANSWER)
                self.child.send(SPACE)
                self.own_answer = text
            case LeaveTextEmpty():
                pass
            case NoteOn(option_id, text):
                self._move_to(option_id)
                self.child.send("n")
                self._note(f"Note on {self.case.label(option_id)}", text, f"✎ {text}")
            case OverallNote(text):
                self.child.send("g")
                self._note("Overall note", text, f"✎ Overall note: {text}")

    def confirm(self) -> None:
        """Enter: the question's answer as it stands (and the own answer, when one is ticked)."""
        self.child.send(ENTER)
        if self.own_answer is not None:
            expect_plain(self.child, "Your own answer")
            self.child.send(self.own_answer + ENTER)

    @property
    def first_screen(self) -> str:
        return "Your answer" if self.text_only else "↑↓ move"

    def _move_to(self, entry: str | None) -> None:
        target = self.entries.index(entry)
        steps = target - self.pointer
        self.child.send(DOWN * steps if steps > 0 else UP * -steps)
        self.pointer = target

    def _note(self, screen: str, text: str, shown_after: str) -> None:
        """Type a note on its own screen, and wait for the list to show it."""
        expect_plain(self.child, screen)
        self.child.send(text + ENTER)
        expect_plain(self.child, shown_after)


class TerminalPerson:
    """Types a case's actions, as keys, into a terminal whose settings screen is up (or coming)."""

    def __init__(self, child: pexpect.spawn, case: Case) -> None:
        self.child = child
        self.case = case
        self.shown = False

    def play(self) -> None:
        if self.case.questions:
            BatchTerminalPerson(self.child, self.case).play()
            return
        actions = self.case.actions
        keys = self.keys = QuestionKeys(self.child, self.case.request, self.case)
        for index, action in enumerate(actions):
            if isinstance(action, Wait):
                continue  # touch nothing: the deadline passes on whatever screen is up
            self._show_question()
            match action:
                case Submit():
                    keys.confirm()
                case SubmitRefused():
                    self.child.send(ENTER)
                    refusal = "Type an answer" if keys.text_only else "✗ Choose"
                    expect_plain(self.child, refusal)
                case Cancel():
                    self.child.send(CTRL_C)
                case Choose(option_id) if index < len(actions) - 1:
                    keys._move_to(option_id)  # a choice that does not send: ticked by space
                    self.child.send(SPACE)
                case _:
                    keys.act(action, last=index == len(actions) - 1)

    def _show_question(self) -> None:
        """Keep the settings as they are and wait for the question's first screen."""
        if self.shown:
            return
        continue_with_settings(self.child)
        expect_plain(self.child, self.keys.first_screen)
        self.shown = True


class BatchTerminalPerson:
    """Types a batch case's actions. The terminal asks the questions in order: a gesture in a later
    question first confirms the one on screen (Enter), one in an earlier question, once every
    question was answered, picks it on the review; Submit sends the review."""

    def __init__(self, child: pexpect.spawn, case: Case) -> None:
        self.child = child
        self.case = case
        self.ids = [item["id"] for item in case.questions]
        self.questions = {item["id"]: QuestionKeys(child, item, case) for item in case.questions}
        self.at: int | None = None
        """The question on screen, by index; `len(ids)`: the review."""
        self.answered: set[str] = set()

    def play(self) -> None:
        for action in self.case.actions:
            if isinstance(action, Wait):
                if self.at is not None:  # what was answered is kept (the next question shows once
                    forward(self.case.request["timeout_seconds"])  # it is): the deadline, now
                continue
            if self.at is None:
                continue_with_settings(self.child)
                self._on(0)
            match action:
                case In(question_id, inner):
                    self._go_to(self.ids.index(question_id))
                    keys = self.questions[question_id]
                    keys.act(inner, last=False)
                    if isinstance(inner, Choose) and keys.submits:
                        self._answered_and_moved_on()
                case Submit():
                    self._go_to(len(self.ids))
                    self.child.send(ENTER)  # the review opens on "Send these answers"
                case Cancel():
                    self.child.send(CTRL_C)

    def _on(self, index: int) -> None:
        """Wait for question `index` (or the review) to show."""
        self.at = index
        if index == len(self.ids):
            expect_plain(self.child, "Send these answers")
            return
        expect_plain(self.child, f"{index + 1} of {len(self.ids)}")
        keys = self.questions[self.ids[index]]
        keys.opened()
        expect_plain(self.child, keys.first_screen)

    def _answered_and_moved_on(self) -> None:
        assert self.at is not None
        self.answered.add(self.ids[self.at])
        everything = len(self.answered) == len(self.ids)
        self._on(len(self.ids) if everything else self.at + 1)

    def _go_to(self, target: int) -> None:
        """Confirm the questions on the way to `target`; an earlier one is picked on the review."""
        assert self.at is not None
        while self.at < target:
            self.questions[self.ids[self.at]].confirm()
            self._answered_and_moved_on()
        if self.at > target:
            if self.at < len(self.ids):
                self.child.send(BACK * (self.at - target))
            else:
                self.child.send(DOWN * (target + 1) + ENTER)  # the review: its answers, in order
            self._on(target)
