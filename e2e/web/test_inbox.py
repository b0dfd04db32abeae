"""The inbox and the history end to end, started as a person would: `provide-choice serve
--no-browser` spawned over stdio by the MCP SDK's own client (one per agent, each naming itself),
`provide-choice inbox` in a process of its own, and `provide-choice history` afterwards, all with
`AGENT_CHOICES_HOME` pointing at one directory. Questions are answered through the inbox's links in
Chromium. The inbox opens only with the token in the address it prints (or the cookie its first visit
sets): another process without it sees no question."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import stat
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from accessibility import serious_violations
from attended import attended_environment
from mcp import Client, MCPError, StdioServerParameters
from mcp_types import CallToolResult, Implementation
from playwright.async_api import Browser, BrowserContext, Locator, Page, expect
from provide_choice_harness import COMMAND
from question_clock import forward
from screenshots import keep_screenshot
from timing import bound

pytestmark = pytest.mark.asyncio(loop_scope="session")

DESKTOP = {"width": 1000, "height": 760}
MOBILE = {"width": 375, "height": 740}
EDITOR = Implementation(name="editor-one", version="1.4.2")
TERMINAL_AGENT = Implementation(name="terminal-agent", version="0.9")
SOON = int(bound(2_000))
"""Milliseconds within which the inbox must show a change (the issue's bound, stretched under load)."""
WHERE = "The browser"
"""Where the inbox test's questions are asked: on the page, as `history` names it (its Where column)."""


def question(title: str, prompt: str = "Which one should I use?", **changes: Any) -> dict[str, Any]:
    return {
        "title": title,
        "prompt": prompt,
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True},
            {"id": "lite", "label": "SQLite"},
        ],
    } | changes


def server(home: Path, errors: Path | None = None) -> StdioServerParameters:
    """`provide-choice serve --no-browser` as an MCP client starts it; its stderr into `errors`."""
    environment = attended_environment(home)
    if errors is None:
        return StdioServerParameters(
            command=COMMAND, args=["serve", "--no-browser"], env=environment
        )
    script = 'exec "$0" serve --no-browser 2>>"$1"'
    return StdioServerParameters(
        command="/bin/sh", args=["-c", script, COMMAND, str(errors)], env=environment
    )


def history(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [COMMAND, "history", *arguments],
        env=attended_environment(home, COLUMNS="140"),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )


def history_json(home: Path) -> list[dict[str, Any]]:
    return [
        json.loads(line) for line in history(home, "--json", "--limit", "500").stdout.splitlines()
    ]


def history_files(home: Path) -> dict[str, bytes]:
    """The database with its write-ahead log and index, as they are on disk."""
    return {file.name: file.read_bytes() for file in home.glob("history.sqlite3*")}


class Inbox:
    """`provide-choice inbox --no-browser --port 0`, its address read from its first line: `address`
    with the token, as printed, and `url` without it (what the address bar shows once loaded)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.process = subprocess.Popen(
            [COMMAND, "inbox", "--no-browser", "--port", "0"],
            env=attended_environment(home),
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        found = re.search(r"inbox at ((http://127\.0\.0\.1:\d+)/\?token=[\w-]{43}) ", line)
        assert found is not None, line
        self.address, self.url = found.groups()

    def stop(self) -> str:
        self.process.send_signal(signal.SIGINT)
        _output, errors = self.process.communicate(timeout=15)
        return errors


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("inbox-home")


@contextmanager
def running_inbox(home: Path) -> Iterator[Inbox]:
    running = Inbox(home)
    try:
        yield running
    finally:
        errors = running.stop()
    assert "Traceback" not in errors
    assert not (home / "inbox.json").exists()


@pytest.fixture(scope="module")
def inbox(home: Path) -> Iterator[Inbox]:
    with running_inbox(home) as running:
        yield running


@pytest.fixture
def own_inbox(tmp_path: Path) -> Iterator[Inbox]:
    """An inbox on a home of the test's own, for a test that counts every question in it: the
    module's home keeps what a failed try left, and a rerun would count that too."""
    with running_inbox(tmp_path) as running:
        yield running


@pytest.fixture(autouse=True)
def here(home: Path) -> None:
    """Every test starts with the person here and the settings as shipped, whatever a failed test
    ("I'm away" clicked, never "I'm back") left in the module's home."""
    (home / "settings.json").unlink(missing_ok=True)


@pytest_asyncio.fixture(loop_scope="session")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    context.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    yield context
    await context.close()
    assert errors == []


def region(page: Page, name: str) -> Locator:
    return page.get_by_role("region", name=name, exact=True)


def waiting_link(page: Page, title: str) -> Locator:
    return region(page, "Waiting").get_by_role("link", name=title, exact=True)


def item(page: Page, region_name: str, title: str) -> Locator:
    """The list item of the question titled `title` in that region."""
    heading = page.get_by_role("heading", name=title, exact=True)
    return region(page, region_name).get_by_role("listitem").filter(has=heading)


def recent_item(page: Page, title: str) -> Locator:
    return item(page, "Recent", title)


async def result_of(call: asyncio.Task[CallToolResult]) -> dict[str, Any]:
    result = await asyncio.wait_for(call, 15)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_questions_from_two_agents_are_answered_through_the_inbox_and_move_to_recent(
    own_inbox: Inbox, context: BrowserContext
) -> None:
    inbox, home = own_inbox, own_inbox.home
    page = await context.new_page()
    await page.goto(inbox.address)
    await expect(page).to_have_title("Inbox — provide-choice")
    await expect(page).to_have_url(inbox.url + "/")  # the token left the address bar
    await expect(region(page, "Waiting")).to_contain_text("No question is waiting.")
    async with (
        Client(server(home), client_info=EDITOR) as editor,
        Client(server(home), client_info=TERMINAL_AGENT) as agent,
    ):
        database = asyncio.create_task(
            editor.call_tool("provide_choice", question("Database for the new app"))
        )
        deploy = asyncio.create_task(
            agent.call_tool(
                "provide_choice", question("Test database", "Which one for the test suite?")
            )
        )
        cache = asyncio.create_task(
            editor.call_tool("provide_choice", question("Cache size", timeout_seconds=900))
        )
        release = asyncio.create_task(
            agent.call_tool("provide_choice", question("Release notes", "Which changelog format?"))
        )
        asked = time.monotonic()
        titles = ("Database for the new app", "Test database", "Cache size", "Release notes")
        for title in titles:
            await expect(waiting_link(page, title)).to_be_visible(timeout=SOON)
        assert time.monotonic() - asked < SOON / 1000
        await expect(region(page, "Waiting").get_by_role("listitem")).to_have_count(4)
        for title, client in zip(
            titles, ("editor-one 1.4.2", "terminal-agent 0.9") * 2, strict=True
        ):
            await expect(item(page, "Waiting", title)).to_contain_text(client)
        await expect(item(page, "Waiting", "Cache size")).to_contain_text(
            re.compile(r"1[45]:\d\d left")
        )
        # (A browser that blocks notifications says so in a status of its own.)
        count = page.get_by_role("status").filter(has_text=re.compile(r"^\d+ waiting$"))
        await expect(count).to_have_text("4 waiting")
        await expect(page).to_have_title("(4) Inbox — provide-choice")

        # Through the inbox's link to the question's own page, answered there, and back.
        await waiting_link(page, "Test database").click()
        await expect(page.get_by_role("heading", name="Test database")).to_be_visible()
        await page.get_by_role("radio", name="SQLite").click()
        await expect(
            page.get_by_role("heading", name="Answer sent, you can close this tab")
        ).to_be_visible()
        ended = time.monotonic()
        response = await result_of(deploy)
        assert response["selection"]["selected_ids"] == ["lite"]
        await page.get_by_role("link", name="All questions waiting").click()
        await expect(page).to_have_url(inbox.url + "/")
        await expect(recent_item(page, "Test database")).to_contain_text("Selected: SQLite.")
        await expect(waiting_link(page, "Test database")).to_have_count(0)
        assert time.monotonic() - ended < SOON / 1000 + 1  # plus loading the inbox page again
        await expect(recent_item(page, "Test database")).to_contain_text("terminal-agent 0.9")
        await expect(recent_item(page, "Test database")).to_contain_text("Answered")

        await page.mouse.move(0, 0)
        await keep_screenshot(page, "inbox.png", full_page=True)

        # An ending the page did not see: it still moves within 2 s.
        await waiting_link(page, "Database for the new app").click()
        await page.get_by_role("radio", name="PostgreSQL").click()
        await result_of(database)
        await page.go_back()
        await expect(recent_item(page, "Database for the new app")).to_be_visible(timeout=SOON)
        for call in (cache, release):
            call.cancel()  # the agent gives up: the question ends as cancelled by the agent
            with suppress(asyncio.CancelledError):
                await call
        await expect(recent_item(page, "Cache size")).to_contain_text("Cancelled", timeout=SOON)
        await expect(region(page, "Waiting")).to_contain_text("No question is waiting.")

    table = history(home).stdout.splitlines()
    columns = ["When", "Client", "Where", "Answered by", "Title", "Outcome"]
    assert re.split(r"\s{2,}", table[0]) == columns
    assert len(table) == 5
    by_agent = "Cancelled by the agent before the person answered"
    expected = {
        "Release notes": ("terminal-agent 0.9", "nobody", by_agent),
        "Cache size": ("editor-one 1.4.2", "nobody", by_agent),
        "Test database": ("terminal-agent 0.9", "person", "Selected: SQLite."),
        "Database for the new app": ("editor-one 1.4.2", "person", "Selected: PostgreSQL."),
    }
    for title, (client, who, outcome) in expected.items():
        (line,) = [line for line in table[1:] if f"  {title}  " in line]
        assert re.fullmatch(
            rf"\d+/\d+/\d{{4}}, \d+:\d\d\s[AP]M  {re.escape(client)} +{WHERE} +{who} +{title} +{re.escape(outcome)}.*",
            line,
        ), line
    entries = history_json(home)
    asked = [entry["asked_at"] for entry in entries]
    assert asked == sorted(asked, reverse=True)  # newest first
    in_table = [next(title for title in expected if f"  {title}  " in row) for row in table[1:]]
    assert in_table == [entry["title"] for entry in entries]

    recorded = {entry["title"]: entry for entry in history_json(home)}
    deploy_entry = recorded["Test database"]
    assert set(deploy_entry) >= {
        "title", "prompt", "selection_mode", "client", "transport", "asked_at", "ended_at",
        "action_status", "answered_by", "selection",
    }  # fmt: skip
    assert deploy_entry["prompt"] == "Which one for the test suite?"
    assert deploy_entry["client"] == {"name": "terminal-agent", "version": "0.9"}
    assert (deploy_entry["transport"], deploy_entry["action_status"]) == ("web", "selected")
    assert deploy_entry["selection"] == response["selection"]
    assert recorded["Cache size"]["action_status"] == "cancelled"


async def test_a_server_killed_with_sigkill_is_dropped_from_waiting(
    home: Path, inbox: Inbox, context: BrowserContext, tmp_path: Path, try_mark: str
) -> None:
    title = f"Left behind{try_mark}"
    pid_file = tmp_path / "pid"
    parameters = StdioServerParameters(
        command="/bin/sh",
        args=["-c", 'echo $$ > "$0"; exec "$1" serve --no-browser', str(pid_file), COMMAND],
        env=attended_environment(home),
    )
    page = await context.new_page()
    await page.goto(inbox.address)
    async with Client(parameters, client_info=EDITOR) as client:
        call = asyncio.create_task(client.call_tool("provide_choice", question(title)))
        await expect(waiting_link(page, title)).to_be_visible(timeout=SOON)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)  # no chance to clean up
        killed = time.monotonic()
        await expect(waiting_link(page, title)).to_have_count(0, timeout=SOON)
        assert time.monotonic() - killed < SOON / 1000
        await expect(recent_item(page, title)).to_have_count(0)  # it never ended
        with suppress(MCPError):  # the call's server is gone
            await call
    unfinished = [entry for entry in history_json(home) if entry["title"] == title]
    assert [(entry["ended_at"], entry["action_status"]) for entry in unfinished] == [(None, None)]
    assert "never ended: its server stopped first" in history(home, "--search", title).stdout


async def test_the_inbox_works_by_keyboard_and_passes_axe_light_dark_and_narrow(
    home: Path, inbox: Inbox, browser: Browser
) -> None:
    long_title = "A title without spaces that must wrap " + "x" * 120
    async with Client(server(home), client_info=EDITOR) as client:
        call = asyncio.create_task(client.call_tool("provide_choice", question(long_title)))
        for scheme, viewport in (("light", DESKTOP), ("dark", DESKTOP), ("dark", MOBILE)):
            context = await browser.new_context(viewport=viewport, color_scheme=scheme)  # type: ignore[arg-type]
            page = await context.new_page()
            await page.goto(inbox.address)
            await expect(waiting_link(page, long_title)).to_be_visible(timeout=SOON)
            assert await serious_violations(page) == [], (scheme, viewport)
            overflow = await page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow == 0, f"the page scrolls sideways at {viewport['width']} px"
            await context.close()

        context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
        page = await context.new_page()
        await page.goto(inbox.address)
        link = waiting_link(page, long_title)
        await expect(link).to_be_visible(timeout=SOON)
        await page.keyboard.press("Tab")
        await expect(page.get_by_role("button", name="Notify me on this device")).to_be_focused()
        await page.keyboard.press("Tab")
        await expect(link).to_be_focused()
        await page.wait_for_timeout(2_500)  # two polls: the list is updated, the focus stays
        await expect(link).to_be_focused()
        await page.keyboard.press("Enter")
        await expect(page.get_by_role("heading", name=long_title)).to_be_visible()
        await page.keyboard.press("Tab")
        await page.keyboard.press("Tab")  # the inbox link, then the first option
        await page.keyboard.press("Space")
        assert (await result_of(call))["selection"]["selected_ids"] == ["pg"]
        await context.close()


async def test_agent_text_is_text_and_foreign_pages_are_refused(
    home: Path, inbox: Inbox, context: BrowserContext
) -> None:
    hostile = "<img src=x onerror=alert(1)> & </script><script>alert(2)</script>"
    page = await context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    async with Client(
        server(home), client_info=Implementation(name="<b>bold</b>", version="1")
    ) as client:
        call = asyncio.create_task(client.call_tool("provide_choice", question(hostile)))
        await page.goto(inbox.address)
        await expect(waiting_link(page, hostile)).to_be_visible(timeout=SOON)
        await expect(region(page, "Waiting")).to_contain_text("<b>bold</b> 1")
        assert await region(page, "Waiting").locator("img, b, script").count() == 0
        call.cancel()
        with suppress(asyncio.CancelledError):
            await call
    assert dialogs == []
    async with httpx.AsyncClient() as client:
        rebinding = await client.get(inbox.address, headers={"Host": "evil.example"})
        page_response = await client.get(inbox.address)
    assert rebinding.status_code == 403
    policy = page_response.headers["content-security-policy"]
    assert "http" not in policy
    assert "unsafe" not in policy


async def ask_in_the_browser(
    client: Client, title: str
) -> tuple[asyncio.Task[CallToolResult], str]:
    """Ask `title` through `client`; the call, and the address of its page (from its progress)."""
    urls: list[str] = []
    address = asyncio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+/choice/\S+): ", message or "")
        if found:
            urls.append(found.group(1))
            address.set()

    call = asyncio.create_task(
        client.call_tool("provide_choice", question(title), progress_callback=on_progress)
    )
    await asyncio.wait_for(address.wait(), 10)
    return call, urls[0]


async def test_the_question_pages_link_opens_the_inbox_in_a_browser_that_never_had_its_address(
    home: Path, inbox: Inbox, context: BrowserContext
) -> None:
    async with Client(server(home), client_info=EDITOR) as client:
        call, url = await ask_in_the_browser(client, "Secret deploy target")
        page = await context.new_page()
        await page.goto(url)
        link = page.get_by_role("link", name="All questions waiting")
        await expect(link).to_be_visible()
        assert await link.get_attribute("href") == inbox.address
        await link.click()
        await expect(page).to_have_title("(1) Inbox — provide-choice")
        await expect(waiting_link(page, "Secret deploy target")).to_be_visible(timeout=SOON)
        await expect(page).to_have_url(inbox.url + "/")  # the token left the address bar
        await page.reload()  # the cookie stands in for the token, for the page and its polls
        await expect(waiting_link(page, "Secret deploy target")).to_be_visible()
        await page.wait_for_timeout(1_500)
        await expect(page.locator("#problem")).to_be_empty()  # its polls were let in
        await waiting_link(page, "Secret deploy target").click()
        await page.get_by_role("radio", name="SQLite").click()
        assert (await result_of(call))["selection"]["selected_ids"] == ["lite"]


async def test_a_page_that_lost_its_cookie_says_how_to_get_the_address(
    inbox: Inbox, browser: Browser
) -> None:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(inbox.address)
    await expect(region(page, "Waiting")).to_be_visible()
    await context.clear_cookies()  # as after the inbox restarted with a new token
    await expect(page.get_by_role("alert")).to_contain_text(
        "run `provide-choice inbox` again to get the address", timeout=SOON
    )
    await page.reload()
    assert "run `provide-choice inbox` again" in await page.content()
    await context.close()


async def test_another_process_without_the_token_gets_403_and_no_question_from_every_route(
    home: Path, inbox: Inbox
) -> None:
    async with Client(server(home), client_info=EDITOR) as client:
        call, url = await ask_in_the_browser(client, "Secret deploy target")
        question_id = url.rsplit("/", 1)[1]
        async with httpx.AsyncClient() as http:
            deadline = time.monotonic() + SOON / 1000
            while "Secret deploy target" not in (await http.get(inbox.address)).text:
                assert time.monotonic() < deadline, "the inbox did not list the question"
                await asyncio.sleep(0.1)
        wrong = secrets.token_urlsafe(32)
        assert len(wrong) == len(inbox.address.rsplit("=", 1)[1])
        for path in ("/", "/state", "/icon.svg"):
            for query in ("", f"?token={wrong}"):
                async with httpx.AsyncClient() as stranger:  # no cookie from an earlier visit
                    response = await stranger.get(inbox.url + path + query)
                assert response.status_code == 403, (path, query)
                (problem,) = response.json()["problems"]
                assert "run `provide-choice inbox` again to get the address" in problem
                assert "Secret deploy target" not in response.text
                assert question_id not in response.text
        call.cancel()
        with suppress(asyncio.CancelledError):
            await call


async def test_a_second_inbox_prints_the_full_address_and_opens_it_through_a_private_page(
    home: Path, inbox: Inbox, context: BrowserContext, tmp_path: Path
) -> None:
    opened = tmp_path / "opened"
    browser_command = tmp_path / "browser"
    browser_command.write_text(f'#!/bin/sh\nprintf "%s" "$*" > "{opened}"\n')
    browser_command.chmod(0o755)
    again = await asyncio.to_thread(
        subprocess.run,
        [COMMAND, "inbox"],
        env=attended_environment(home, BROWSER=str(browser_command)),
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert again.stderr == (
        f"provide-choice inbox: the inbox already runs at {inbox.address}; opening it\n"
    )
    deadline = time.monotonic() + 5
    while not opened.exists() or not opened.read_text():
        assert time.monotonic() < deadline, "the browser was not started"
        await asyncio.sleep(0.05)
    argument = opened.read_text()  # what any process on the machine could read from `ps`
    assert argument == (home / "inbox-open.html").as_uri()
    assert stat.S_IMODE((home / "inbox-open.html").stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "inbox.json").stat().st_mode) == 0o600
    page = await context.new_page()
    await page.goto(argument)
    await expect(page).to_have_url(inbox.url + "/")
    await expect(region(page, "Waiting")).to_be_visible()


async def test_keep_history_set_off_on_the_page_leaves_nothing_once_the_question_ends(
    tmp_path: Path, context: BrowserContext
) -> None:
    messages: list[str] = []
    address = asyncio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        messages.append(message or "")
        if "/choice/" in (message or ""):
            address.set()

    async with Client(server(tmp_path), client_info=EDITOR) as client:
        call = asyncio.create_task(
            client.call_tool("provide_choice", question("Forget me"), progress_callback=on_progress)
        )
        await asyncio.wait_for(address.wait(), 10)
        assert [entry["title"] for entry in history_json(tmp_path)] == ["Forget me"]  # waiting
        url = re.search(r"at (http://\S+): ", messages[-1]).group(1)  # type: ignore[union-attr]
        page = await context.new_page()
        await page.goto(url)
        await page.get_by_text("Settings", exact=True).click()
        await page.get_by_label("History of questions and answers").select_option(
            label="Not kept: nothing stays once a question ends"
        )
        await expect(page.locator("#settings-status")).to_have_text("Saved.")
        days = page.get_by_label("Days of history kept")
        await days.fill("0")
        await days.press("Enter")
        await expect(page.locator("#settings-status")).to_have_text(
            "Type whole days from 1 to 3650."
        )
        await days.fill("7")
        await days.press("Enter")
        await expect(page.locator("#settings-status")).to_have_text("Saved.")
        await page.get_by_role("radio", name="SQLite").click()
        assert (await result_of(call))["selection"]["selected_ids"] == ["lite"]
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert (saved["keep_history"], saved["history_days"]) == (False, 7)
    assert history_json(tmp_path) == []
    for name, content in history_files(tmp_path).items():
        assert b"Forget me" not in content, name


async def test_a_corrupt_history_file_never_breaks_a_question(tmp_path: Path) -> None:
    garbage = b"not a database at all; " * 400
    (tmp_path / "history.sqlite3").write_bytes(garbage)
    errors = tmp_path / "stderr.txt"
    address = asyncio.Event()
    urls: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+): ", message or "")
        if found:
            urls.append(found.group(1))
            address.set()

    async with Client(server(tmp_path, errors), client_info=EDITOR) as client:
        for title in ("First", "Second"):
            address.clear()
            call = asyncio.create_task(
                client.call_tool("provide_choice", question(title), progress_callback=on_progress)
            )
            await asyncio.wait_for(address.wait(), 10)
            async with httpx.AsyncClient() as http:
                answer = await http.post(
                    urls[-1] + "/answer", json={"kind": "answered", "selected_ids": ["pg"]}
                )
            assert answer.status_code == 200
            assert (await result_of(call))["action_status"] == "selected"
    warnings = [line for line in errors.read_text().splitlines() if "warning" in line]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith(
        f"provide-choice: warning: the history {tmp_path / 'history.sqlite3'} cannot be used (file is not a database)"
    )
    assert warnings[0].endswith("questions are still asked, but not recorded")
    assert (tmp_path / "history.sqlite3").read_bytes() == garbage


async def test_two_servers_with_thirty_questions_each_at_once_are_all_recorded(
    tmp_path: Path,
) -> None:
    errors = tmp_path / "stderr.txt"
    async with (
        Client(server(tmp_path, errors), client_info=EDITOR) as editor,
        Client(server(tmp_path, errors), client_info=TERMINAL_AGENT) as agent,
    ):
        calls = [
            asyncio.create_task(
                client.call_tool(
                    "provide_choice", question(f"{name} {number}", timeout_seconds=120)
                )
            )
            for number in range(30)
            for client, name in ((editor, "editor"), (agent, "agent"))
        ]
        deadline = time.monotonic() + bound(3)
        while len([entry for entry in history_json(tmp_path) if entry["ended_at"] is None]) < 60:
            assert time.monotonic() < deadline, "not every question was recorded while it waited"
            await asyncio.sleep(0.1)
        forward(120)  # every one of them times out at once
        results = [(await result_of(call))["action_status"] for call in calls]
    assert results == ["timeout"] * 60
    recorded = history_json(tmp_path)
    assert len(recorded) == 60
    assert {entry["action_status"] for entry in recorded} == {"timeout"}
    clients = [entry["client"]["name"] for entry in recorded]
    assert (clients.count("editor-one"), clients.count("terminal-agent")) == (30, 30)
    assert {entry["title"] for entry in recorded} == {
        f"{name} {number}" for number in range(30) for name in ("editor", "agent")
    }
    problems = errors.read_text()
    assert "warning" not in problems
    assert "locked" not in problems


async def test_im_away_answers_every_question_at_once_and_recent_says_who_answered(
    home: Path, inbox: Inbox, context: BrowserContext, tmp_path: Path, try_mark: str
) -> None:
    asked_away, ruled, left = (
        f"{title}{try_mark}" for title in ("Asked while away", "Ruled", "Left to time out")
    )
    rules = tmp_path / "answers.json"
    rules.write_text(json.dumps({"answers": [{"title": ruled, "selected_ids": ["lite"]}]}))
    parameters = StdioServerParameters(
        command=COMMAND,
        args=["serve", "--no-browser"],
        env=attended_environment(home, PROVIDE_CHOICE_ANSWERS=str(rules)),
    )
    page = await context.new_page()
    await page.goto(inbox.address)
    away = region(page, "Away")
    await away.get_by_label("Away for").select_option(label="2 hours")
    await away.get_by_role("button", name="I'm away").click()
    back = away.get_by_role("button", name="I'm back")
    await expect(back).to_be_focused()
    await expect(away.locator("#away-status")).to_have_text(re.compile(r"^Away until \S+"))
    async with Client(parameters, client_info=EDITOR) as client:
        response = await client.call_tool("provide_choice", question(asked_away))
        assert response.structured_content is not None
        assert response.structured_content["action_status"] == "unattended"
        await client.call_tool("provide_choice", question(ruled))
        await back.click()
        await expect(away.get_by_role("button", name="I'm away")).to_be_focused()
        await expect(away.locator("#away-status")).to_have_text(re.compile(r"^Here: "))
        await client.call_tool("provide_choice", question(left, timeout_seconds=1))
    for title, outcome in (
        (asked_away, "Nobody was asked"),
        (ruled, "From the answers file"),
        (left, "No answer"),
    ):
        await expect(recent_item(page, title)).to_contain_text(outcome, timeout=SOON)
    await expect(recent_item(page, asked_away)).to_contain_text("Not shown")
    assert json.loads((home / "settings.json").read_text())["away_until"] is None
