"""The web portal end to end: `provide-choice serve` spawned over stdio by the MCP SDK's own client,
with `BROWSER` set to a script that records the address it is asked to open (and chatters on its
stdout, which must never reach the protocol); Chromium opens that address and answers.

One server serves the whole module (a new browser context per test), so questions in a row, at
once, and after a cancelled one all go through the same process and bridge.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import stat
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from attended import attended_environment
from axe_playwright_python.async_playwright import Axe
from mcp import Client, StdioServerParameters
from mcp_servers import Calls, call_on_page, held
from mcp_types import CallToolResult
from playwright.async_api import (
    Browser,
    BrowserContext,
    Dialog,
    Locator,
    Page,
    Request,
    WebSocketRoute,
    expect,
)
from provide_choice_harness import COMMAND
from question_clock import forward
from screenshots import keep_screenshot

pytestmark = pytest.mark.asyncio(loop_scope="session")

XSS_LABEL = "<img src=x onerror=alert(1)>"
DESKTOP = {"width": 1000, "height": 900}
MOBILE = {"width": 375, "height": 740}

OPTIONS = [
    {"id": "unit", "label": "Unit tests", "description": "2 minutes", "recommended": True},
    {"id": "e2e", "label": "Browser tests", "description": "Chromium, 3 minutes"},
    {"id": "bench", "label": "Benchmarks", "description": "Against the last release, 10 minutes"},
    {"id": "docs", "label": "Docs build", "description": "Links and examples"},
]


def question(mode: str, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "title": "Checks before the release",
        "prompt": "The release branch is ready. Which checks should run **before tagging**?",
        "selection_mode": mode,
        "options": OPTIONS,
    }
    if mode == "text_input":
        del base["options"]
    return base | changes


BROWSER_SCRIPT = """#!/bin/sh
echo "a browser chatting on its stdout"
printf '%s\\n' "$1" >> "$0.urls"
"""


class OpenedAddresses:
    """What the `$BROWSER` script was asked to open, in order."""

    def __init__(self, script: Path) -> None:
        self.log = Path(f"{script}.urls")
        self.seen = 0

    def all(self) -> list[str]:
        return self.log.read_text().split() if self.log.exists() else []

    async def next(self) -> str:
        while True:
            addresses = self.all()
            if len(addresses) > self.seen:
                self.seen += 1
                return addresses[self.seen - 1]
            await asyncio.sleep(0.05)


class Agent(Calls):
    """Calls the tool as an agent's MCP client would, and remembers its calls, so a failed test
    cancels the ones it left waiting instead of leaving them to the next test."""

    def __init__(self, client: Client, opened: OpenedAddresses) -> None:
        super().__init__(client)
        self.opened = opened

    async def ask(self, request: dict[str, Any]) -> tuple[asyncio.Task[CallToolResult], str]:
        """The call's task, and the address the browser was sent to."""
        call = self.start(request)
        opening = asyncio.ensure_future(self.opened.next())
        await asyncio.wait([call, opening], timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if not opening.done():
            opening.cancel()
            raise AssertionError(
                f"the browser was not asked to open the question: {call.result() if call.done() else 'no answer in 10 s'}"
            )
        return call, opening.result()

    async def cancel_unfinished(self) -> None:
        await super().cancel_unfinished()
        # An address a call that was given up on opened late is not the next test's question.
        self.opened.seen = len(self.opened.all())


def browser_script(directory: Path) -> Path:
    script = directory / "browser"
    script.write_text(BROWSER_SCRIPT)
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("portal-home")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def server(home: Path) -> AsyncIterator[Agent]:
    script = browser_script(home)
    parameters = StdioServerParameters(
        command=COMMAND,
        args=["serve"],
        env=attended_environment(home, BROWSER=str(script)),
    )
    async with held(Client(parameters)) as client:
        yield Agent(client, OpenedAddresses(script))


@pytest_asyncio.fixture(autouse=True, loop_scope="session")
async def agent(server: Agent) -> AsyncIterator[Agent]:
    yield server
    await server.cancel_unfinished()


@pytest.fixture(autouse=True)
def fresh_settings_and_a_clean_stdout(
    home: Path, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    """Each test starts from default settings. The SDK's stdio client logs every line on the
    server's stdout that is not JSON-RPC: the portal and the browser it starts must never write
    there (the browser script above does try)."""
    (home / "settings.json").unlink(missing_ok=True)
    with caplog.at_level(logging.WARNING, logger="mcp.client.stdio"):
        yield
    assert not [record for record in caplog.records if record.name == "mcp.client.stdio"]


class Pages:
    """A fresh browser context for one test; every page it opens fails the test on a script error
    or a page dialog (agent text must never run)."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.errors: list[str] = []

    async def open(self, url: str) -> Page:
        page = await self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"script error: {error}"))
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )

        async def refuse(dialog: Dialog) -> None:
            self.errors.append(f"dialog: {dialog.message}")
            await dialog.dismiss()

        page.on("dialog", refuse)
        await page.goto(url)
        return page


@pytest_asyncio.fixture(loop_scope="session")
async def pages(browser: Browser) -> AsyncIterator[Pages]:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    opened = Pages(context)
    yield opened
    await context.close()
    assert opened.errors == []


async def response_of(call: asyncio.Task[CallToolResult]) -> dict[str, Any]:
    result = await asyncio.wait_for(call, 15)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    response: dict[str, Any] = result.structured_content
    assert response["selection"]["transport"] == "web"
    return response


def group(page: Page) -> Locator:
    return page.get_by_role("group", name="Checks before the release")


def option(page: Page, label: str, role: str = "checkbox") -> Locator:
    return group(page).get_by_role(role, name=label)  # type: ignore[arg-type]


async def expect_ended(page: Page, heading: str) -> None:
    await expect(page.get_by_role("heading", name=heading)).to_be_visible()
    await expect(page.locator("#question-form")).to_be_hidden()


async def open_settings(page: Page) -> None:
    await page.get_by_text("Settings", exact=True).click()
    await expect(page.get_by_label("Timeout in seconds")).to_be_visible()


async def test_a_single_choice_is_sent_by_the_click_that_chooses_it(
    agent: Agent, pages: Pages
) -> None:
    """Regression: the click handler ran before the change handler and sent the choice as it was
    before the click (the default here), or nothing."""
    call, url = await agent.ask(question("single", default_selection_ids=["unit"]))
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/choice/[0-9a-f]{48}", url)
    page = await pages.open(url)
    await expect(page).to_have_title("(1) Checks before the release — provide-choice")
    assert await page.get_attribute("html", "lang") == "en"
    await expect(group(page).get_by_role("radio")).to_have_count(4)
    await expect(
        page.get_by_text("Choose one: choosing an option sends your answer.")
    ).to_be_visible()
    await expect(page.get_by_role("button", name="Submit")).to_be_hidden()
    await expect(page.locator(".prompt strong")).to_have_text("before tagging")
    await option(page, "Browser tests", "radio").click()
    await expect_ended(page, "Answer sent, you can close this tab")
    await expect(page.get_by_text("Selected: Browser tests.")).to_be_visible()
    response = await response_of(call)
    assert response["action_status"] == "selected"
    assert response["selection"]["selected_ids"] == ["e2e"]


async def test_multi_select_refuses_counts_outside_the_limits_and_sends_notes_over_the_socket(
    agent: Agent, pages: Pages
) -> None:
    request = question(
        "multi", min_selections=2, max_selections=3, default_selection_ids=["unit", "e2e"]
    )
    call, url = await agent.ask(request)
    posts: list[str] = []
    sockets: list[str] = []
    page = await pages.open("about:blank")
    page.on("request", lambda sent: posts.append(sent.url) if sent.method == "POST" else None)
    page.on("websocket", lambda socket: sockets.append(socket.url))
    await page.goto(url)
    submit = page.get_by_role("button", name="Submit")
    reason = page.locator("#submit-reason")
    await expect(option(page, "Unit tests")).to_be_checked()
    await expect(option(page, "Browser tests")).to_be_checked()
    await expect(page.get_by_text("Choose 2 to 3 options.")).to_be_visible()
    await expect(submit).to_be_enabled()
    await option(page, "Browser tests").uncheck()
    await expect(submit).to_be_disabled()
    await expect(reason).to_have_text("Choose 2 to 3 options (1 chosen)")
    for label in ("Browser tests", "Benchmarks", "Docs build"):
        await option(page, label).check()
    await expect(submit).to_be_disabled()
    await expect(reason).to_have_text("Choose 2 to 3 options (4 chosen)")
    await option(page, "Docs build").uncheck()
    await expect(submit).to_be_enabled()
    await expect(reason).to_be_empty()
    await (
        group(page)
        .get_by_role("listitem")
        .filter(has_text="Browser tests")
        .get_by_role("button", name="Add a note")
        .click()
    )
    await page.get_by_label("Note on Browser tests").fill("Only the smoke suite")
    await page.get_by_label("Note on the whole question (optional)").fill("Tag once they pass")
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()

    await page.evaluate("document.activeElement.blur()")
    await page.evaluate("document.fonts.ready")
    await keep_screenshot(page, "portal-multi.png", full_page=True)

    await submit.click()
    await expect_ended(page, "Answer sent, you can close this tab")
    response = await response_of(call)
    assert response["selection"]["selected_ids"] == ["unit", "e2e", "bench"]
    assert response["selection"]["option_annotations"] == {"e2e": "Only the smoke suite"}
    assert response["selection"]["global_annotation"] == "Tag once they pass"
    assert sockets == [url.replace("http://", "ws://") + "/live"]
    assert posts == [], "with the WebSocket up, nothing goes over plain HTTP"


async def test_text_input_placeholder_follows_the_setting_and_an_empty_field_accepts_it(
    agent: Agent, pages: Pages
) -> None:
    call, url = await agent.ask(question("text_input", placeholder="Run everything"))
    page = await pages.open(url)
    answer = page.get_by_label("Your answer")
    submit = page.get_by_role("button", name="Submit")
    await expect(answer).to_have_attribute("placeholder", "Run everything")
    await expect(page.get_by_text("Leave it empty to accept the suggestion shown.")).to_be_visible()
    await expect(submit).to_be_enabled()
    await open_settings(page)
    suggestion = page.get_by_label("Suggested answer in the text field")
    await suggestion.select_option(label="Hidden")
    await expect(page.get_by_label("Your answer")).to_have_js_property("placeholder", "")
    await expect(submit).to_be_disabled()
    await expect(page.locator("#submit-reason")).to_have_text("Type an answer to submit.")
    await suggestion.select_option(label="Shown")
    await expect(page.get_by_label("Your answer")).to_have_attribute(
        "placeholder", "Run everything"
    )
    await submit.click()
    response = await response_of(call)
    assert response["action_status"] == "custom_input"
    assert response["selection"]["custom_input"] == "Run everything"
    assert response["selection"]["placeholder_used"] is True


async def test_hybrid_takes_an_option_and_own_words_and_options_can_be_hidden(
    agent: Agent, pages: Pages
) -> None:
    call, url = await agent.ask(question("hybrid", placeholder="Unit tests only"))
    page = await pages.open(url)
    await expect(group(page).get_by_role("radio")).to_have_count(4)
    await open_settings(page)
    await (
        page.get_by_role("group", name="Options shown (this question only)")
        .get_by_label("Docs build")
        .uncheck()
    )
    await expect(group(page).get_by_role("radio")).to_have_count(3)
    await expect(page.get_by_text("Saved.", exact=True)).to_be_visible()
    await option(page, "Benchmarks", "radio").check()
    await page.get_by_role("button", name="Clear the choice").click()
    await expect(option(page, "Benchmarks", "radio")).not_to_be_checked()
    await option(page, "Browser tests", "radio").check()
    await page.get_by_label("Or type your own answer").fill("and a manual smoke test")
    await page.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    assert response["action_status"] == "custom_input"
    assert response["selection"]["selected_ids"] == ["e2e"]
    assert response["selection"]["custom_input"] == "and a manual smoke test"
    assert response["selection"]["placeholder_used"] is False


async def test_own_words_waive_the_minimum_and_the_fields_take_the_servers_limits(
    agent: Agent, pages: Pages
) -> None:
    """The page takes these rules from the server's state, not from rules of its own."""
    call, url = await agent.ask(question("hybrid", min_selections=1, max_selections=2))
    page = await pages.open(url)
    submit = page.get_by_role("button", name="Submit")
    reason = page.locator("#submit-reason")
    own_words = page.get_by_label("Or type your own answer")
    await expect(
        page.get_by_text("Choose 1 to 2 options, or type your own answer.")
    ).to_be_visible()
    await expect(reason).to_have_text("Choose 1 to 2 options, or type your own answer (0 chosen)")
    await expect(submit).to_be_disabled()
    await expect(own_words).to_have_attribute("maxlength", "10000")
    await expect(page.get_by_label("Note on the whole question (optional)")).to_have_attribute(
        "maxlength", "2000"
    )
    await own_words.fill("a smoke test by hand")
    await expect(submit).to_be_enabled()
    for label in ("Unit tests", "Browser tests", "Benchmarks"):
        await option(page, label).check()
    await expect(reason).to_have_text("Choose up to 2 options (3 chosen)")
    await option(page, "Benchmarks").uncheck()
    await submit.click()
    response = await response_of(call)
    assert response["selection"]["selected_ids"] == ["unit", "e2e"]
    assert response["selection"]["custom_input"] == "a smoke test by hand"


async def test_settings_change_this_question_and_persist_into_the_next_call(
    agent: Agent, pages: Pages, home: Path
) -> None:
    call, url = await agent.ask(question("single", timeout_seconds=120))
    page = await pages.open(url)
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^(1:5\d|2:00) left$"))
    await open_settings(page)
    await page.get_by_label("A single choice is sent").select_option(label="When submitted")
    await expect(page.get_by_role("button", name="Submit")).to_be_visible()
    await page.get_by_label("Offer notes on options and on the whole question").uncheck()
    await expect(page.get_by_role("button", name="Add a note")).to_have_count(0)
    timeout = page.get_by_label("Timeout in seconds")
    await timeout.fill("900")
    await timeout.press("Enter")
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^(14:5\d|15:00) left$"))
    await expect(page.locator("#settings-status")).to_have_text("Saved.")

    await page.evaluate("document.activeElement.blur()")
    await page.locator("#settings").scroll_into_view_if_needed()
    await keep_screenshot(page.locator("#settings"), "portal-settings.png")

    await page.get_by_role("button", name="Cancel").click()
    await expect_ended(page, "Cancelled")
    assert (await response_of(call))["action_status"] == "cancelled"
    saved = json.loads((home / "settings.json").read_text())
    assert saved == {
        "transport": "auto",
        "timeout_override_seconds": 900,
        "single_submit": False,
        "annotations": False,
        "placeholder_visible": None,
        "timeout_action": "return_defaults",
        "keep_history": True,
        "history_days": 30,
        "unattended_action": "return_defaults",
        "away_until": None,
        "alerts": {"terminal": True, "desktop": True, "browser": True, "push": True},
        "alert_after_seconds": 0,
        "notify_urls": [],
        "notify_detail": "full",
        "language": "auto",
    }

    call, url = await agent.ask(question("single", timeout_seconds=120))
    page = await pages.open(url)
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^(14:5\d|15:00) left$"))
    await expect(page.get_by_role("button", name="Add a note")).to_have_count(0)
    await option(page, "Docs build", "radio").click()
    await expect(page.locator("#question-form")).to_be_visible()  # a click no longer sends
    await page.get_by_role("button", name="Submit").click()
    assert (await response_of(call))["selection"]["selected_ids"] == ["docs"]


async def test_away_set_on_the_page_answers_the_next_question_at_once_opening_nothing(
    agent: Agent, pages: Pages, home: Path
) -> None:
    call, url = await agent.ask(question("single", timeout_seconds=120))
    page = await pages.open(url)
    await open_settings(page)
    nobody = page.get_by_label("When nobody can be asked (unattended, or away)")
    await nobody.select_option(label="Return nothing")
    await expect(page.locator("#settings-status")).to_have_text("Saved.")
    await page.get_by_label("Away until").fill("2099-01-02T18:00")
    await expect(page.locator("#settings-status")).to_have_text("Saved.")
    await page.get_by_role("button", name="Cancel").click()
    assert (await response_of(call))["action_status"] == "cancelled"
    saved = json.loads((home / "settings.json").read_text())
    assert (saved["away_until"], saved["unattended_action"]) == (
        "2099-01-02T18:00",
        "return_nothing",
    )

    result = await asyncio.wait_for(
        agent.client.call_tool(
            "provide_choice", question("single", default_selection_ids=["unit"])
        ),
        1,
    )
    assert result.structured_content is not None
    assert result.structured_content["action_status"] == "unattended"
    assert result.structured_content["selection"]["summary"] == (
        "Nobody was asked: the person is away until 2099-01-02 18:00 (local time); nothing "
        "selected."
    )
    assert len(agent.opened.all()) == agent.opened.seen  # no page was opened for it


async def test_cancel_is_always_there_and_ends_the_question(agent: Agent, pages: Pages) -> None:
    call, url = await agent.ask(question("multi", min_selections=2))
    page = await pages.open(url)
    await expect(page.get_by_role("button", name="Submit")).to_be_disabled()
    await expect(page.get_by_role("button", name="Cancel")).to_be_enabled()
    await page.get_by_role("button", name="Cancel").click()
    await expect_ended(page, "Cancelled")
    await expect(page.get_by_text("Cancelled by the person; nothing selected.")).to_be_visible()
    response = await response_of(call)
    assert (response["action_status"], response["selection"]["selected_ids"]) == ("cancelled", [])


async def test_the_countdown_runs_out_and_the_page_says_timed_out(
    agent: Agent, pages: Pages
) -> None:
    request = question("single", timeout_seconds=120, default_selection_ids=["unit"])
    call, url = await agent.ask(request)
    page = await pages.open(url)
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^(1:5\d|2:00) left$"))
    forward(100)  # the question's time, on the tests' clock: the countdown follows
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^0:(1\d|20) left$"))
    forward(20)
    await expect(page.get_by_role("heading", name="Timed out")).to_be_visible()
    await expect_ended(page, "Timed out")
    await expect(page.get_by_text("defaults returned, not chosen by the person")).to_be_visible()
    response = await response_of(call)
    assert (response["action_status"], response["selection"]["selected_ids"]) == (
        "timeout",
        ["unit"],
    )


async def test_a_closed_tab_reopens_with_what_was_already_chosen(
    agent: Agent, pages: Pages
) -> None:
    call, url = await agent.ask(question("multi"))
    page = await pages.open(url)
    await option(page, "Benchmarks").check()
    await option(page, "Docs build").check()
    await (
        page.get_by_role("listitem")
        .filter(has_text="Docs build")
        .get_by_role("button", name="Add a note")
        .click()
    )
    await page.get_by_label("Note on Docs build").fill("links only")
    await page.get_by_label("Note on the whole question (optional)").fill("after lunch")
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
    await page.close()

    page = await pages.open(url)
    for label, checked in [("Unit tests", False), ("Browser tests", False), ("Benchmarks", True)]:
        await expect(option(page, label)).to_be_checked(checked=checked)
    await expect(option(page, "Docs build")).to_be_checked()
    await expect(page.get_by_label("Note on Docs build")).to_have_value("links only")
    await expect(page.get_by_label("Note on the whole question (optional)")).to_have_value(
        "after lunch"
    )
    await page.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    assert response["selection"]["selected_ids"] == ["bench", "docs"]
    assert response["selection"]["option_annotations"] == {"docs": "links only"}


async def test_agent_text_is_text_and_runs_nothing(agent: Agent, pages: Pages) -> None:
    request = question(
        "single",
        title="Pick <b>one</b>",
        prompt="<script>alert(2)</script> and <img src=x onerror=alert(3)>",
        options=[
            {"id": "xss", "label": XSS_LABEL, "description": XSS_LABEL, "recommended": True},
            {"id": "plain", "label": "Plain"},
        ],
    )
    call, url = await agent.ask(request)
    page = await pages.open(url)
    await expect(page.get_by_role("heading", level=1)).to_have_text("Pick <b>one</b>")
    await expect(page.locator(".prompt")).to_have_text(
        "<script>alert(2)</script> and <img src=x onerror=alert(3)>"
    )
    choice = page.get_by_role("radio", name=XSS_LABEL)
    await expect(choice).to_be_visible()
    await expect(page.locator("label[for=option-0]")).to_have_text(XSS_LABEL + "Recommended")
    await expect(page.locator("img")).to_have_count(0)
    await expect(page.locator("script")).to_have_count(3)  # its state, its words, its own script
    await choice.click()
    assert (await response_of(call))["selection"]["selected_ids"] == ["xss"]
    # `pages` fails the test on any dialog or script error.


async def test_keyboard_alone_moves_without_sending_then_sends(agent: Agent, pages: Pages) -> None:
    call, url = await agent.ask(question("single"))
    page = await pages.open(url)
    await expect(group(page)).to_be_visible()
    await page.keyboard.press("Tab")
    await expect(option(page, "Unit tests", "radio")).to_be_focused()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")
    await expect(option(page, "Benchmarks", "radio")).to_be_focused()
    await expect(option(page, "Benchmarks", "radio")).to_be_checked()
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
    await expect(page.locator("#question-form")).to_be_visible()  # moving sent nothing
    await page.keyboard.press("Enter")
    await expect_ended(page, "Answer sent, you can close this tab")
    await expect(page.locator("#ended")).to_be_focused()
    assert (await response_of(call))["selection"]["selected_ids"] == ["bench"]


async def test_batch_mode_by_keyboard_with_space_tab_and_enter(agent: Agent, pages: Pages) -> None:
    call, url = await agent.ask(question("multi", allow_annotations=False))
    page = await pages.open(url)
    await expect(group(page)).to_be_visible()
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await expect(option(page, "Browser tests")).to_be_focused()
    await page.keyboard.press("Space")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Space")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    await expect(page.get_by_role("button", name="Submit")).to_be_focused()
    await page.keyboard.press("Enter")
    response = await response_of(call)
    assert response["selection"]["selected_ids"] == ["e2e", "bench"]


async def test_no_serious_accessibility_violations_light_dark_and_mobile(
    agent: Agent, browser: Browser
) -> None:
    # A code line wider than the page: the block scrolls, so the keyboard must reach it.
    prompt = "Which checks should run?\n\n```sh\nmake test " + "--verbose " * 40 + "\n```"
    call, url = await agent.ask(question("hybrid", placeholder="Unit tests only", prompt=prompt))
    for scheme, viewport in (("light", DESKTOP), ("dark", DESKTOP), ("dark", MOBILE)):
        context = await browser.new_context(viewport=viewport, color_scheme=scheme)  # type: ignore[arg-type]
        page = await context.new_page()
        await page.goto(url)
        await open_settings(page)
        await page.get_by_role("listitem").first.get_by_role("button", name="Add a note").click()
        results = await Axe().run(page)
        violations = [
            f"{violation['id']} ({violation['impact']}): {violation['help']}"
            for violation in results.response["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
        assert violations == [], (scheme, viewport)
        overflow = await page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow == 0, f"the page scrolls sideways at {viewport['width']} px"
        await context.close()
    call.cancel()


async def test_three_questions_in_a_row_then_the_bridge_stops(agent: Agent, pages: Pages) -> None:
    for label in ("Unit tests", "Browser tests", "Benchmarks"):
        call, url = await agent.ask(question("single"))
        page = await pages.open(url)
        await group(page).get_by_text(label, exact=True).click()  # the label, not the radio
        await expect_ended(page, "Answer sent, you can close this tab")
        assert (await response_of(call))["selection"]["summary"] == f"Selected: {label}."
    # A fresh connection per probe: a kept-alive one closed by the stopping bridge would
    # fail with a read error while the bridge is still on its way down.
    async with httpx.AsyncClient(limits=httpx.Limits(max_keepalive_connections=0)) as client:
        for _ in range(50):
            try:
                await client.get(url + "/state")
            except httpx.ConnectError:
                break
            except (httpx.ReadError, httpx.RemoteProtocolError):
                pass  # shutting down: the next probe must find nothing listening
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the bridge still serves 5 s after the last question ended")


async def test_two_questions_at_once_each_get_their_own_answer(agent: Agent, pages: Pages) -> None:
    first, first_url = await agent.ask(question("single", title="First question"))
    second, second_url = await agent.ask(question("single", title="Second question"))
    by_title = {}
    for url in (first_url, second_url):
        page = await pages.open(url)
        by_title[await page.get_by_role("heading", level=1).text_content()] = page
    await by_title["Second question"].get_by_role("radio", name="Docs build").click()
    await by_title["First question"].get_by_role("radio", name="Unit tests").click()
    assert (await response_of(first))["selection"]["selected_ids"] == ["unit"]
    assert (await response_of(second))["selection"]["selected_ids"] == ["docs"]


async def test_the_agent_cancelling_the_call_closes_the_page(agent: Agent, pages: Pages) -> None:
    call, url = await agent.ask(question("single"))
    page = await pages.open(url)
    await expect(group(page)).to_be_visible()
    call.cancel()
    await expect_ended(page, "Cancelled by the agent")
    # Regression: the line under the heading said "Cancelled by the person; nothing selected."
    await expect(
        page.get_by_text("Cancelled by the agent before the person answered")
    ).to_be_visible()
    await expect(page.get_by_text("Cancelled by the person")).to_have_count(0)
    # The server goes on: the next question works.
    call, url = await agent.ask(question("single"))
    page = await pages.open(url)
    await option(page, "Unit tests", "radio").click()
    assert (await response_of(call))["selection"]["selected_ids"] == ["unit"]


async def test_without_a_websocket_the_page_works_over_plain_http(
    agent: Agent, pages: Pages
) -> None:
    async def refuse(socket: WebSocketRoute) -> None:
        await socket.close(code=1011, reason="blocked by a proxy")

    await pages.context.route_web_socket(re.compile(r"/live$"), refuse)
    sent: list[str] = []
    call, url = await agent.ask(question("multi", max_selections=2))
    page = await pages.open("about:blank")

    def record(request: Request) -> None:
        if request.method == "POST":
            sent.append(request.url.rsplit("/", 1)[1])

    page.on("request", record)
    await page.goto(url)
    await option(page, "Browser tests").check()
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
    await open_settings(page)
    await page.get_by_label("Offer notes on options and on the whole question").uncheck()
    await expect(page.locator("#settings-status")).to_have_text("Saved.")
    await option(page, "Docs build").check()
    await option(page, "Benchmarks").check()
    await expect(page.locator("#submit-reason")).to_have_text("Choose 1 to 2 options (3 chosen)")
    await option(page, "Benchmarks").uncheck()
    await page.get_by_role("button", name="Submit").click()
    await expect_ended(page, "Answer sent, you can close this tab")
    assert (await response_of(call))["selection"]["selected_ids"] == ["e2e", "docs"]
    assert {"draft", "settings", "answer"} <= set(sent)


async def test_with_no_browser_the_address_comes_in_a_progress_notification(
    tmp_path: Path, pages: Pages
) -> None:
    script = browser_script(tmp_path)
    parameters = StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser"],
        env=attended_environment(tmp_path, BROWSER=str(script)),
    )
    async with Client(parameters) as client:
        call, url = await call_on_page(client, question("single"))
        page = await pages.open(url)
        await option(page, "Browser tests", "radio").click()
        result = await asyncio.wait_for(call, 15)
    assert result.structured_content is not None
    assert result.structured_content["selection"]["selected_ids"] == ["e2e"]
    assert OpenedAddresses(script).all() == []
