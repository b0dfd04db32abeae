"""A person on the question as the page draws it: in the browser, or in the provide_choice app
(the same parts drawing the same question, in the host's frame). They click and type by
accessible names."""

from __future__ import annotations

import re

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
from playwright.async_api import Frame, Locator, Page, expect


class PagePerson:
    """Plays a case's actions on the question's page."""

    def __init__(self, page: Page | Frame, case: Case) -> None:
        self.page = page
        self.case = case
        self.options = page.get_by_role("group", name=case.request["title"])
        self.submit = page.get_by_role("button", name="Submit")
        own = case.request["selection_mode"] == "hybrid"
        self.text = page.get_by_label("Or type your own answer" if own else "Your answer")

    def option(self, option_id: str, role: str) -> Locator:
        return self.options.get_by_role(role, name=self.case.label(option_id))  # type: ignore[arg-type]

    async def play(self) -> None:
        page = self.page
        for action in self.case.actions:
            match action:
                case Choose(option_id):
                    await self.option(option_id, "radio").click()
                case Toggle(option_id):
                    await self.option(option_id, "checkbox").click()
                case Type(text):
                    await self.text.fill(text)
                case LeaveTextEmpty():
                    await expect(self.text).to_have_value("")
                case NoteOn(option_id, text):
                    label = self.case.label(option_id)
                    item = self.options.get_by_role("listitem").filter(has_text=label)
                    await item.get_by_role("button", name="Add a note").click()
                    await page.get_by_label(f"Note on {label}").fill(text)
                case OverallNote(text):
                    await page.get_by_label("Note on the whole question (optional)").fill(text)
                case Submit():
                    await self.submit.click()
                case SubmitRefused():
                    # The button says why it cannot send (its description), and sends nothing.
                    await expect(self.submit).to_be_disabled()
                    await expect(self.submit).to_have_accessible_description(re.compile(r"\S"))
                case Cancel():
                    await page.get_by_role("button", name="Cancel").click()
                case Wait():
                    pass
