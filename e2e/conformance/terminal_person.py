"""A case's actions as keys in a terminal showing the question: the server's own terminal and the
hand-off terminal show the same screens, so one person plays both."""

from __future__ import annotations

import pexpect
from conformance import (
    Cancel,
    Case,
    Choose,
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

OWN_ANSWER = None
"""The list entry that leads to typing an own answer (hybrid), after the options."""


class TerminalPerson:
    """Types a case's actions, as keys, into a terminal whose settings screen is up (or coming).

    It keeps track of the list's pointer the way a person's eyes do: the list opens on the first
    default (else the first option) and stays where it was after a note. A hybrid own answer is
    ticked on the list and typed on the screen that follows Enter."""

    def __init__(self, child: pexpect.spawn, case: Case) -> None:
        self.child = child
        self.case = case
        self.text_only = case.request["selection_mode"] == "text_input"
        self.entries: list[str | None] = list(case.options())
        if case.request["selection_mode"] == "hybrid":
            self.entries.append(OWN_ANSWER)
        defaults = case.request.get("default_selection_ids", [])
        self.pointer = self.entries.index(defaults[0]) if defaults else 0
        self.shown = False
        self.own_answer: str | None = None

    def play(self) -> None:
        actions = self.case.actions
        for index, action in enumerate(actions):
            if isinstance(action, Wait):
                continue  # touch nothing: the deadline passes on whatever screen is up
            self._show_question()
            match action:
                case Choose(option_id):
                    self._move_to(option_id)
                    # A script that ends on a choice: the choice is the answer (a select list).
                    self.child.send(ENTER if index == len(actions) - 1 else SPACE)
                case Toggle(option_id):
                    self._move_to(option_id)
                    self.child.send(SPACE)
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
                case Submit():
                    self.child.send(ENTER)
                    if self.own_answer is not None:
                        expect_plain(self.child, "Your own answer")
                        self.child.send(self.own_answer + ENTER)
                case SubmitRefused():
                    self.child.send(ENTER)
                    refusal = "Type an answer" if self.text_only else "✗ Choose"
                    expect_plain(self.child, refusal)
                case Cancel():
                    self.child.send(CTRL_C)

    def _show_question(self) -> None:
        """Keep the settings as they are and wait for the question's first screen."""
        if self.shown:
            return
        continue_with_settings(self.child)
        expect_plain(self.child, "Your answer" if self.text_only else "↑↓ move")
        self.shown = True

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
