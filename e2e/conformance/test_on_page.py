"""The conformance table on the page: `provide-choice serve --no-browser` over stdio, spawned by
the SDK's client; the page's address taken from the call's progress notifications and opened in
Chromium, where the person clicks and types by accessible names. One server and one browser for
the whole module, a new browser context per case."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from cases import CASES
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
    asked_on,
    assert_conforms,
    params,
    write_settings,
)
from mcp import Client
from mcp_servers import call_on_page, structured
from playwright.async_api import Browser, Locator, Page, expect

pytestmark = pytest.mark.asyncio(loop_scope="module")


class PagePerson:
    """Plays a case's actions on the question's page (a batch's, in each question's group)."""

    def __init__(self, page: Page, case: Case) -> None:
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
                case OverallNote(text):
                    await page.get_by_label(
                        re.compile(r"^Note on (the whole question|all the questions)")
                    ).fill(text)
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


@pytest.mark.parametrize("case", params(CASES, "page"))
async def test_the_page_gives_the_expected_response(
    case: Case, stdio_server: tuple[Path, Client], browser: Browser
) -> None:
    home, client = stdio_server
    write_settings(home, case)
    call, url = await call_on_page(client, asked_on(case, "page"))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(url)
        await PagePerson(page, case).play()
        response = structured(await asyncio.wait_for(call, 15))
    finally:
        call.cancel()
        await context.close()
    assert_conforms(case, "page", response)
