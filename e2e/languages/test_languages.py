"""Every page in the person's language, end to end (issue 31): Chromium with the locale zh-CN gets
the page, the app in the conversation and the inbox in Simplified Chinese, with `<html lang>`
naming it and axe clean; fr-FR (no catalog) gets English; the setting `language` wins over the
browser, and changing it on the page turns the page at once. What the agent gets stays English.

The page's server is `provide-choice serve --no-browser` over stdio (the page's address comes in
a progress notification); the app runs in the test host on an in-process server; the inbox is
`provide-choice inbox` in a process of its own. The settings live in a directory of the module's.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from accessibility import serious_violations
from app_host import AppHost, apps_extension
from mcp import Client
from mcp_servers import call_on_page, connected, held, structured
from playwright.async_api import Browser, BrowserContext, Page, expect
from provide_choice_harness import COMMAND
from screenshots import keep_screenshot

from provide_choice import create_server

pytestmark = pytest.mark.asyncio(loop_scope="session")

CHINESE = "zh-CN"
FRENCH = "fr-FR"
QUESTION: dict[str, Any] = {
    "title": "发布前的检查",
    "prompt": "发布分支已经准备好了。打标签**之前**要运行哪些检查？",
    "selection_mode": "multi",
    "options": [
        {"id": "unit", "label": "单元测试", "description": "2 分钟", "recommended": True},
        {"id": "e2e", "label": "浏览器测试", "description": "Chromium，3 分钟"},
        {"id": "bench", "label": "基准测试", "description": "与上一个版本对比，10 分钟"},
    ],
    "default_selection_ids": ["unit"],
}
"""The agent's own words, as a Chinese-speaking agent would write them: shown as written."""
ENGLISH_QUESTION: dict[str, Any] = QUESTION | {
    "title": "Checks before the release",
    "prompt": "Which checks should run before tagging?",
    "options": [
        {"id": "unit", "label": "Unit tests", "recommended": True},
        {"id": "e2e", "label": "Browser tests"},
    ],
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("languages-home")


@pytest.fixture(autouse=True)
def default_settings(home: Path) -> None:
    (home / "settings.json").unlink(missing_ok=True)


def set_language(home: Path, language: str) -> None:
    (home / "settings.json").write_text(json.dumps({"language": language}))


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def agent(home: Path) -> AsyncIterator[Client]:
    async with held(connected("stdio", home)) as client:
        yield client


async def opened(browser: Browser, locale: str) -> tuple[BrowserContext, list[str]]:
    context = await browser.new_context(locale=locale, viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    return context, errors


async def page_of(
    agent: Client, browser: Browser, locale: str, request: dict[str, Any]
) -> tuple[asyncio.Task[Any], Page, BrowserContext, list[str]]:
    call, url = await call_on_page(agent, request)
    context, errors = await opened(browser, locale)
    page = await context.new_page()
    await page.goto(url)
    return call, page, context, errors


async def expect_in(page: Page, lang: str, words: tuple[str, str, str]) -> None:
    """The page is in `lang`: its `<html lang>`, and its Submit, Cancel and Settings in `words`."""
    submit, cancel, settings = words
    assert await page.get_attribute("html", "lang") == lang
    await expect(page.get_by_role("button", name=submit)).to_be_visible()
    await expect(page.get_by_role("button", name=cancel)).to_be_visible()
    await expect(page.get_by_text(settings, exact=True)).to_be_visible()


async def test_in_chinese_the_page_is_chinese_and_the_agent_gets_english(
    agent: Client, browser: Browser
) -> None:
    call, page, context, errors = await page_of(agent, browser, CHINESE, QUESTION)
    await expect_in(page, "zh-Hans", ("提交", "取消", "设置"))
    await expect(page.get_by_text("请选择 1 到 3 项。")).to_be_visible()
    await expect(page.get_by_role("timer")).to_have_text(re.compile(r"^剩余 [45]:\d\d$"))
    await expect(page.get_by_text("推荐", exact=True)).to_be_visible()
    await expect(page.get_by_role("checkbox", name="单元测试")).to_be_checked()
    await page.get_by_role("button", name="添加备注").first.click()
    await page.get_by_label("单元测试的备注").fill("只跑冒烟测试")
    await page.get_by_text("设置", exact=True).click()
    await expect(page.get_by_label("超时（秒）")).to_be_visible()
    await expect(page.get_by_label("语言")).to_have_value('"auto"')
    assert await serious_violations(page) == []
    await page.evaluate("document.activeElement.blur()")
    await page.get_by_text("设置", exact=True).click()  # closed again for the picture
    await page.evaluate("document.fonts.ready")
    await keep_screenshot(page, "page-chinese.png", full_page=True)
    await page.get_by_role("checkbox", name="浏览器测试").check()
    await page.get_by_role("button", name="提交").click()
    await expect(page.get_by_role("heading", name="回答已发送，可以关闭此标签页")).to_be_visible()
    response = structured(await asyncio.wait_for(call, 15))
    await context.close()
    assert errors == []
    assert response["selection"]["selected_ids"] == ["unit", "e2e"]
    assert (
        response["selection"]["summary"]
        == "Selected: 单元测试, 浏览器测试 (with notes on 单元测试)."
    )


async def test_without_a_catalog_for_the_browser_the_page_is_english(
    agent: Client, browser: Browser
) -> None:
    call, page, context, errors = await page_of(agent, browser, FRENCH, ENGLISH_QUESTION)
    await expect_in(page, "en", ("Submit", "Cancel", "Settings"))
    await page.get_by_role("button", name="Cancel").click()
    assert structured(await asyncio.wait_for(call, 15))["action_status"] == "cancelled"
    await context.close()
    assert errors == []


async def test_the_setting_wins_over_the_browser_and_turns_the_open_page(
    agent: Client, browser: Browser, home: Path
) -> None:
    set_language(home, "en")
    call, page, context, errors = await page_of(agent, browser, CHINESE, ENGLISH_QUESTION)
    assert await page.get_attribute("html", "lang") == "en"
    await expect(page.get_by_role("button", name="Submit")).to_be_visible()
    await page.get_by_text("Settings", exact=True).click()
    await page.get_by_label("Language").focus()  # as a person's click or Tab leaves it
    await page.get_by_label("Language").select_option(label="中文 (简体)")
    await expect(page.get_by_role("button", name="提交")).to_be_visible()
    await expect(page.get_by_text("设置", exact=True)).to_be_visible()
    await expect(page.get_by_label("语言")).to_be_focused()  # the rebuilt panel keeps its place
    assert await page.get_attribute("html", "lang") == "zh-Hans"
    assert json.loads((home / "settings.json").read_text())["language"] == "zh-Hans"
    assert await serious_violations(page) == []
    await page.get_by_role("button", name="取消").click()
    await expect(page.get_by_role("heading", name="已取消")).to_be_visible()
    assert structured(await asyncio.wait_for(call, 15))["action_status"] == "cancelled"
    await context.close()
    assert errors == []


@pytest.mark.parametrize(
    ("locale", "submit", "lang"), [(CHINESE, "提交", "zh-Hans"), (FRENCH, "Submit", "en")]
)
async def test_the_app_speaks_the_hosts_language(
    browser: Browser,
    host_bundle: str,
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    submit: str,
    lang: str,
) -> None:
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(home))
    client = Client(create_server(), extensions=[apps_extension()])
    async with (
        held(client) as connected_client,
        AppHost.opened(browser, connected_client, host_bundle) as host,
    ):
        call = await host.show(
            "provide_choice", ENGLISH_QUESTION | {"timeout_seconds": 60}, locale=locale
        )
        assert call is not None
        frame = host.frame
        await expect(frame.get_by_role("button", name=submit)).to_be_visible()
        assert await frame.get_attribute("html", "lang") == lang
        assert await serious_violations(frame) == []
        await frame.get_by_role("button", name=submit).click()
        response = structured(await asyncio.wait_for(call, 15))
    assert response["selection"]["summary"] == "Selected: Unit tests."


@pytest.fixture(scope="module")
def inbox(home: Path) -> Iterator[str]:
    process = subprocess.Popen(
        [COMMAND, "inbox", "--no-browser", "--port", "0"],
        env={**os.environ, "AGENT_CHOICES_HOME": str(home)},
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    found = re.search(
        r"inbox at (http://127\.0\.0\.1:\d+/\?token=[\w-]{43}) ", process.stderr.readline()
    )
    assert found is not None
    yield found.group(1)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=15)


@pytest.mark.parametrize(
    ("locale", "heading", "away", "lang"),
    [(CHINESE, "收件箱", "我要离开", "zh-Hans"), (FRENCH, "Inbox", "I'm away", "en")],
)
async def test_the_inbox_speaks_the_browsers_language(
    browser: Browser, inbox: str, locale: str, heading: str, away: str, lang: str
) -> None:
    context, errors = await opened(browser, locale)
    page = await context.new_page()
    await page.goto(inbox)
    await expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
    await expect(page.get_by_role("button", name=away)).to_be_visible()
    assert await page.get_attribute("html", "lang") == lang
    assert await serious_violations(page) == []
    await context.close()
    assert errors == []
