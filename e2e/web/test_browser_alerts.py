"""Alerts in the browser, in a real Chromium: the tab titles count what waits (a question's page:
`(1) Database — provide-choice`; the inbox: `(3) Inbox — provide-choice`) with a badge on the
icon, and go back once nothing waits; the inbox's "Notify me on this device" turns the Web
Notifications API on (the test grants the permission) and each new question is one; the page's
settings panel switches the alerts and saves them. `provide-choice serve --no-browser` runs over
stdio as a client starts it, `provide-choice inbox` in a process of its own, one data directory."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from alert_environment import environment
from mcp import Client, StdioServerParameters
from mcp_servers import Calls, held
from mcp_types import CallToolResult, Implementation
from playwright.async_api import Browser, BrowserContext, Page, expect
from provide_choice_harness import COMMAND
from screenshots import keep_screenshot, taking_screenshots
from timing import bound
from web_notifications import RECORD_NOTIFICATIONS

pytestmark = pytest.mark.asyncio(loop_scope="session")

SOON = int(bound(3_000))
EDITOR = Implementation(name="editor-one", version="1.4.2")
# As the page links them: beside its own address, whatever path a public URL puts it under.
ICON, WAITING_ICON = "assets/icon.svg", "assets/icon-waiting.svg"


def question(title: str, **changes: Any) -> dict[str, Any]:
    return {
        "title": title,
        "prompt": "Which one should I use?",
        "selection_mode": "single",
        "options": [
            {"id": "pg", "label": "PostgreSQL", "recommended": True},
            {"id": "lite", "label": "SQLite"},
        ],
    } | changes


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser-alerts")


@pytest.fixture(scope="module")
def inbox(home: Path) -> Iterator[str]:
    """`provide-choice inbox --no-browser --port 0`: the address it prints, with its token."""
    process = subprocess.Popen(
        [COMMAND, "inbox", "--no-browser", "--port", "0"],
        env=environment(home),
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    found = re.search(r"inbox at (http://\S+) ", process.stderr.readline())
    assert found is not None
    yield found.group(1)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=15)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def agent(home: Path) -> AsyncIterator[Client]:
    parameters = StdioServerParameters(
        command=COMMAND, args=["serve", "--no-browser"], env=environment(home)
    )
    async with held(Client(parameters, client_info=EDITOR)) as client:
        yield client


@pytest_asyncio.fixture(loop_scope="session")
async def calls(agent: Client, home: Path) -> AsyncIterator[Calls]:
    """The test's calls on the module's agent, from the settings as shipped; the questions a test
    leaves waiting (a failed try) are cancelled, and its settings forgotten: the inbox's count and
    the page's switches of the next test are its own."""
    (home / "settings.json").unlink(missing_ok=True)
    made = Calls(agent)
    yield made
    await made.cancel_unfinished()


@pytest_asyncio.fixture(loop_scope="session")
async def context(full_browser: Browser) -> AsyncIterator[BrowserContext]:
    # The full Chromium: the headless shell denies every page Web Notifications.
    context = await full_browser.new_context(viewport={"width": 1000, "height": 760})
    await context.add_init_script(RECORD_NOTIFICATIONS)
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield context
    await context.close()
    assert errors == []


def without_title(request: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in request.items() if key != "title"}


async def icon_of(page: Page) -> str | None:
    return await page.get_attribute('link[rel="icon"]', "href")


async def answered(call: asyncio.Task[CallToolResult]) -> dict[str, Any]:
    result = await asyncio.wait_for(call, 15)
    assert result.structured_content is not None, result.content
    return result.structured_content


async def test_a_question_page_counts_itself_in_its_tab_until_it_is_answered(
    calls: Calls, context: BrowserContext
) -> None:
    call, address = await calls.on_page(question("Database"))
    page = await context.new_page()
    await page.goto(address)
    await expect(page).to_have_title("(1) Database — provide-choice")
    assert await icon_of(page) == WAITING_ICON
    assert await page.evaluate(f"fetch('{WAITING_ICON}').then((r) => r.status)") == 200
    await page.get_by_role("radio", name="SQLite").click()
    await expect(page).to_have_title("Database — provide-choice")
    assert await icon_of(page) == ICON
    assert (await answered(call))["selection"]["selected_ids"] == ["lite"]


async def test_a_batch_is_one_question_waiting_on_its_page(
    calls: Calls, context: BrowserContext
) -> None:
    batch = {
        "title": "Release",
        "questions": [
            {"id": name, "header": name.title()} | without_title(question(name))
            for name in ("database", "cache")
        ],
    }
    call, address = await calls.on_page(batch)
    page = await context.new_page()
    await page.goto(address)
    await expect(page).to_have_title("(1) Release — provide-choice")
    await page.get_by_role("button", name="Cancel").click()
    await expect(page).to_have_title("Release — provide-choice")
    await answered(call)


async def test_the_inbox_counts_every_question_waiting_and_notifies_each_new_one(
    home: Path, calls: Calls, inbox: str, context: BrowserContext
) -> None:
    page = await context.new_page()
    await page.goto(inbox)
    await expect(page).to_have_title("Inbox — provide-choice")
    assert await page.get_attribute('link[rel="icon"]', "href") == "/icon.svg"
    notify = page.get_by_role("button", name="Notify me on this device")
    await expect(notify).to_be_visible()
    for title in ("Database", "Cache size", "Release notes"):
        calls.start(question(title))
    await expect(page).to_have_title("(3) Inbox — provide-choice", timeout=SOON)
    assert await page.get_attribute('link[rel="icon"]', "href") == "/icon-waiting.svg"
    await take_tab_screenshot(page)

    # Asked only on the click: the person grants it, and only later questions are told of.
    assert await page.evaluate("Notification.permission") == "default"
    origin = re.match(r"http://[^/]+", inbox)
    assert origin is not None
    await context.grant_permissions(["notifications"], origin=origin.group(0))
    await notify.click()
    await expect(page.get_by_text("Notifications are on for this device")).to_be_visible()
    await expect(notify).to_be_hidden()
    title = "<b>Deploy</b> **now**?"
    calls.start(question(title))
    await expect(page).to_have_title("(4) Inbox — provide-choice", timeout=SOON)
    shown = await page.evaluate("window.shownNotifications")
    assert shown == [{"title": "Question waiting", "body": title}]

    # Switched off in the settings, the browser's alerts go: no count, no badge.
    settings = home / "settings.json"
    settings.write_text(json.dumps({"alerts": {"browser": False}}))
    await expect(page).to_have_title("Inbox — provide-choice", timeout=SOON)
    assert await page.get_attribute('link[rel="icon"]', "href") == "/icon.svg"
    settings.unlink()
    await calls.cancel_unfinished()
    await expect(page).to_have_title("Inbox — provide-choice", timeout=SOON)


async def take_tab_screenshot(page: Page) -> None:
    """The documentation's picture of the inbox's tab: the inbox as Chromium draws it, under a tab strip
    drawn with the tab's real title and icon (a headless browser draws no tabs of its own)."""
    if not taking_screenshots():
        return
    title = await page.title()
    icon = await page.evaluate(
        "fetch(document.querySelector('link[rel=icon]').href).then((r) => r.text())"
    )
    shot = await page.screenshot(clip={"x": 0, "y": 0, "width": 1000, "height": 540})
    frame = await page.context.new_page()
    await frame.set_viewport_size({"width": 1000, "height": 590})
    await frame.set_content(tab_strip(title, icon, shot))
    await keep_screenshot(frame, "inbox-tab.png")
    await frame.close()


def tab_strip(title: str, icon_svg: str, shot: bytes) -> str:
    import base64
    import html

    icon = base64.b64encode(icon_svg.encode()).decode()
    picture = base64.b64encode(shot).decode()
    return f"""<!doctype html><html><body style="margin:0;background:#dee1e6;font:13px system-ui">
<div style="display:flex;align-items:flex-end;height:42px;padding:0 8px">
 <div style="display:flex;align-items:center;gap:8px;width:240px;height:34px;padding:0 12px;
  background:#fff;border-radius:8px 8px 0 0">
  <img src="data:image/svg+xml;base64,{icon}" width="16" height="16" alt="">
  <span style="white-space:nowrap;overflow:hidden;text-overflow:ellipsis">{html.escape(title)}</span>
 </div>
</div>
<img src="data:image/png;base64,{picture}" style="display:block" alt="">
</body></html>"""


async def test_the_page_settings_panel_switches_the_alerts_and_saves_them(
    home: Path, calls: Calls, context: BrowserContext
) -> None:
    call, address = await calls.on_page(question("Deploy"))
    page = await context.new_page()
    await page.goto(address)
    await page.locator("summary", has_text="Settings").click()
    alerts = page.get_by_role("group", name="Tell me a question waits")
    shown = (
        "In the terminal",
        "On the desktop",
        "In the browser",
        "By push",
        "In Slack",
        "In Telegram",
    )
    for label in shown:
        await expect(alerts.get_by_role("checkbox", name=re.compile(label))).to_be_checked()
    await expect(alerts).to_contain_text("Push needs addresses: notify_urls in your settings file")
    await alerts.get_by_role("checkbox", name=re.compile("In the browser")).uncheck()
    await expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    await expect(page).to_have_title("Deploy — provide-choice")
    await alerts.get_by_role("checkbox", name=re.compile("By push")).uncheck()
    await expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    await alerts.get_by_role("checkbox", name=re.compile("In Telegram")).uncheck()
    await expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    after = page.get_by_label("Alert once a question waited untouched (seconds)")
    await after.fill("90")
    await after.press("Tab")
    await expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    await page.get_by_label("Push alerts say").select_option(label="The title only")
    await expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    saved = json.loads((home / "settings.json").read_text())
    assert saved["alerts"] == {
        "terminal": True,
        "desktop": True,
        "browser": False,
        "push": False,
        "telegram": False,
    }
    assert (saved["alert_after_seconds"], saved["notify_detail"]) == (90, "title_only")
    await alerts.get_by_role("checkbox", name=re.compile("In the browser")).check()
    await expect(page).to_have_title("(1) Deploy — provide-choice")
    (home / "settings.json").unlink()
    await page.get_by_role("button", name="Cancel").click()
    await answered(call)
