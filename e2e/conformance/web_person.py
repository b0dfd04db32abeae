"""A person on the question as the page draws it: in the browser, or in the provide_choice app
(the same parts drawing the same question, in the host's frame). They click and type by
accessible names."""

from __future__ import annotations

import re

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
from playwright.async_api import Frame, Locator, Page, expect
from question_clock import forward


class PagePerson:
    """Plays a case's actions on the question's page (a batch's, in each question's group)."""

    def __init__(self, page: Page | Frame, case: Case) -> None:
        self.page = page
        self.case = case
        self.options = page.get_by_role("group", name=case.request["title"])
        self.submit = page.get_by_role("button", name="Submit")

    def text(self, scope: Locator, mode: str) -> Locator:
        return scope.get_by_label("Or type your own answer" if mode == "hybrid" else "Your answer")

    def option(self, scope: Locator, option_id: str, role: str) -> Locator:
        return scope.get_by_role(role, name=self.case.label(option_id))  # type: ignore[arg-type]

    async def play(self) -> None:
        page = self.page
        for action in self.case.actions:
            match action:
                case In(question_id, inner):
                    question = self.case.question(question_id)
                    group = page.get_by_role("group", name=question["header"])
                    await self.act(inner, group, question["selection_mode"])
                case OverallNote(text):
                    note = re.compile(r"^Note on (the whole question|all the questions)")
                    await page.get_by_label(note).fill(text)
                case Submit():
                    await self.submit.click()
                case SubmitRefused():
                    # The button says why it cannot send (its description), and sends nothing.
                    await expect(self.submit).to_be_disabled()
                    await expect(self.submit).to_have_accessible_description(re.compile(r"\S"))
                case Cancel():
                    await page.get_by_role("button", name="Cancel").click()
                case Wait() if action is not self.case.actions[0]:
                    # Once the page said it has what the person did: the deadline, now.
                    await expect(page.get_by_text(re.compile(r"^Saved: "))).to_be_visible()
                    forward(self.case.request["timeout_seconds"])
                case Wait():
                    pass  # the question's own deadline passes
                case _:
                    await self.act(action, self.options, self.case.request["selection_mode"])

    async def act(self, action: Action, scope: Locator, mode: str) -> None:
        """One gesture on one question: the page's only one, or a batch's group."""
        match action:
            case Choose(option_id):
                await self.option(scope, option_id, "radio").click()
            case Toggle(option_id):
                await self.option(scope, option_id, "checkbox").click()
            case Type(text):
                await self.text(scope, mode).fill(text)
            case LeaveTextEmpty():
                await expect(self.text(scope, mode)).to_have_value("")
            case NoteOn(option_id, text):
                label = self.case.label(option_id)
                item = scope.get_by_role("listitem").filter(has_text=label)
                await item.get_by_role("button", name="Add a note").click()
                await self.page.get_by_label(f"Note on {label}").fill(text)
