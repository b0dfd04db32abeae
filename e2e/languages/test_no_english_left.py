"""No English left on a Chinese surface (issue 42): each surface a person reads, walked in Chinese
in real processes, holds no English word but the few allowed (`english_left`: product and protocol
names, key names, addresses, options, the agent's own text).

- the chat, `choices-chat` with its demo agent, in Chromium with the locale zh-CN (and, with
  `--lang zh-CN`, in an English browser): its header (subtitle, "Notify me on this device"), the
  demo agent's own words and its questions, through two answers to its plan;
- the inbox in Chromium zh-CN, a batch waiting ("（3 个问题）" after its title) and a question
  ended;
- `provide-choice history` with `LANG=zh_CN.UTF-8`: its table, and its errors (a history written
  by a newer version, a bad `--limit`);
- `provide-choice ask` in a pseudo-terminal with `LANG=zh_CN.UTF-8`: the settings screen, the
  settings editor and a setting's values, the question, and the line it leaves.

What the agent reads (the summary, the JSON) stays English, and is left out as the agent's text.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import signal
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pexpect
import pyte
import pytest
import pytest_asyncio
from attended import attended_environment
from chat_harness import chat_server, log
from english_left import english_left
from mcp_servers import call_on_page, connected, held, structured
from mcp_types import Implementation
from playwright.async_api import Browser, Page, expect
from provide_choice_harness import COMMAND, DOWN, ENTER, UP, expect_plain, spawn

IN_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")  # the browser's

CHINESE = "zh-CN"
SHELL_CHINESE = "zh_CN.UTF-8"
AGENT = Implementation(name="编辑器", version="1.0")
OPTIONS = [
    {"id": "pg", "label": "PostgreSQL", "recommended": True},
    {"id": "lite", "label": "SQLite"},
]
QUESTION: dict[str, Any] = {
    "title": "数据库",
    "prompt": "应用需要存储，但还没有配置。",
    "selection_mode": "single",
    "options": OPTIONS,
}
BATCH: dict[str, Any] = {
    "title": "发布计划",
    "questions": [
        {"id": "db", "header": "数据库", "prompt": "用哪个数据库？", "selection_mode": "single"}
        | {"options": OPTIONS},
        {
            "id": "cache",
            "header": "缓存",
            "prompt": "要缓存吗？",
            "selection_mode": "single",
            "options": [
                {"id": "yes", "label": "要", "recommended": True},
                {"id": "no", "label": "不要"},
            ],
        },
        {"id": "name", "prompt": "服务叫什么？", "selection_mode": "text_input"},
    ],
}
AGENT_TEXT = ("PostgreSQL", "SQLite")


def no_english(text: str, *agent_text: str) -> None:
    left = english_left(text, (*AGENT_TEXT, *agent_text))
    assert left == [], f"English left: {left}\n{text}"


async def page_text(page: Page) -> str:
    """The text a person reads on the page: an icon's name (a ligature of its font) is none."""
    return await page.evaluate(
        """() => {
            const copy = document.body.cloneNode(true);
            for (const icon of copy.querySelectorAll(".q-icon, .material-icons")) icon.remove();
            document.body.append(copy);
            const text = copy.innerText;
            copy.remove();
            return text;
        }"""
    )


# The chat ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chat_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with chat_server(["--agent", "demo"], tmp_path_factory.mktemp("chat")) as url:
        yield url


@IN_SESSION_LOOP
async def test_the_chat_and_its_demo_agent_speak_the_browsers_chinese(
    full_browser: Browser, chat_url: str
) -> None:
    # The full Chromium, which offers notifications ("Notify me on this device", in Chinese).
    context = await full_browser.new_context(
        locale=CHINESE, viewport={"width": 1100, "height": 900}
    )
    page = await context.new_page()
    await page.goto(chat_url)
    await expect(log(page)).to_contain_text("我是演示代理")
    await expect(page.locator("header").get_by_text("演示代理", exact=True)).to_be_visible()
    await expect(page.get_by_role("button", name="在此设备上通知我")).to_be_visible()
    await expect(page.get_by_role("button", name="周末出游")).to_be_enabled()
    no_english(await page_text(page))
    await page.get_by_role("button", name="周末出游").click()
    await expect(page.get_by_role("button", name="山里")).to_be_enabled()
    no_english(await page_text(page))
    await page.get_by_role("button", name="山里").click()
    await expect(log(page)).to_contain_text("计划如下")
    await expect(page.get_by_role("button", name="好，重新开始")).to_be_enabled()
    await expect(page.get_by_role("cell", name="坐火车上山，下午山脊徒步")).to_be_visible()
    no_english(await page_text(page))
    await context.close()


@IN_SESSION_LOOP
async def test_lang_pins_the_chat_and_its_demo_agent_to_chinese_in_an_english_browser(
    browser: Browser, tmp_path: Path
) -> None:
    with chat_server(["--agent", "demo", "--lang", CHINESE], tmp_path) as url:
        context = await browser.new_context(locale="en-US")
        page = await context.new_page()
        await page.goto(url)
        await expect(page.get_by_role("button", name="周末出游")).to_be_enabled()
        no_english(await page_text(page))
        await context.close()


# The inbox and the history ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("chinese-home")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def asked(home: Path) -> AsyncIterator[str]:
    """A batch waiting on its page and a question answered, asked by an agent named in Chinese:
    the summary the agent got, which stays English."""
    async with held(connected("stdio", home, client_info=AGENT)) as agent:
        answered, page = await call_on_page(agent, QUESTION)
        async with httpx.AsyncClient() as http:
            posted = await http.post(
                page + "/answer", json={"kind": "answered", "selected_ids": ["lite"]}
            )
            assert posted.status_code == 200
        summary = structured(await asyncio.wait_for(answered, 15))["selection"]["summary"]
        waiting, _page = await call_on_page(agent, BATCH)
        yield summary
        waiting.cancel()


@pytest.fixture(scope="module")
def inbox(home: Path, asked: str) -> Iterator[str]:
    process = subprocess.Popen(
        [COMMAND, "inbox", "--no-browser", "--port", "0"],
        env=attended_environment(home),
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=[\w-]{43})", process.stderr.readline())
    assert found is not None
    yield found.group(1)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=15)


@IN_SESSION_LOOP
async def test_the_inbox_says_a_batchs_count_and_everything_else_in_chinese(
    browser: Browser, inbox: str, asked: str
) -> None:
    context = await browser.new_context(locale=CHINESE, viewport={"width": 1000, "height": 760})
    page = await context.new_page()
    await page.goto(inbox)
    await expect(page.get_by_role("heading", name="发布计划（3 个问题）")).to_be_visible()
    await expect(page.get_by_text(asked)).to_be_visible()
    no_english(await page_text(page), asked)
    await context.close()


def history(home: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [COMMAND, "history", *arguments],
        env=attended_environment(home, LANG=SHELL_CHINESE, LC_ALL="", COLUMNS="160"),
        capture_output=True,
        text=True,
        timeout=30,
    )


@IN_SESSION_LOOP
async def test_the_history_and_its_errors_are_chinese(
    home: Path, asked: str, tmp_path: Path
) -> None:
    shown = await asyncio.to_thread(history, home)
    assert shown.returncode == 0, shown.stderr
    assert "发布计划（3 个问题）" in shown.stdout
    no_english(shown.stdout, asked)

    bad_limit = await asyncio.to_thread(history, home, "--limit", "x")
    assert bad_limit.returncode == 2
    assert "参数 --limit：必须是 1 到 1000000 之间的问题数量（整数）" in bad_limit.stderr
    no_english(bad_limit.stderr)

    newer = tmp_path / "newer"
    newer.mkdir()
    with sqlite3.connect(newer / "history.sqlite3") as connection:
        connection.execute("PRAGMA user_version = 99")
    refused = await asyncio.to_thread(history, newer)
    assert refused.returncode != 0
    assert "它由更新版本的 agent-choices 写入" in refused.stderr
    no_english(refused.stderr)


# The terminal ------------------------------------------------------------------------------------


def test_the_terminal_speaks_chinese_from_the_settings_to_the_line_it_leaves(
    tmp_path: Path,
) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps(QUESTION))
    columns = 120
    child = spawn(
        ["/bin/sh", "-c", 'exec "$0" ask "$1" > "$2"', COMMAND, str(request), str(tmp_path / "a")],
        tmp_path / "home",
        dimensions=(40, columns),
        language=SHELL_CHINESE,
    )
    child.logfile_read = drawn = io.StringIO()

    def screen_after(text: str) -> str:
        expect_plain(child, text)
        child.expect(pexpect.TIMEOUT, timeout=0.3)  # the rest of that drawing
        screen = pyte.Screen(columns, 40)
        pyte.Stream(screen).feed(drawn.getvalue())
        return "\n".join(line.rstrip() for line in screen.display)

    no_english(screen_after("使用这些设置继续"), QUESTION["title"], QUESTION["prompt"])
    child.send(DOWN + ENTER)
    no_english(screen_after("Enter 打开高亮的设置"), QUESTION["title"], QUESTION["prompt"])
    child.send(DOWN + DOWN + DOWN + ENTER)  # "单选的发送时机"
    values = screen_after("Enter 设为高亮的值")
    assert "按问题的要求（当前）" in values
    no_english(values, QUESTION["title"], QUESTION["prompt"])
    child.send(ENTER)  # kept
    expect_plain(child, "Enter 打开高亮的设置")
    child.send(UP + UP + UP + ENTER)  # "完成"
    expect_plain(child, "使用这些设置继续")
    child.send(ENTER)
    no_english(screen_after("Enter 提交"), QUESTION["title"], QUESTION["prompt"])
    child.send(ENTER)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = pyte.Screen(columns, 40)
    pyte.Stream(screen).feed(drawn.getvalue())
    left = [line.rstrip() for line in screen.display if line.strip()]
    assert left[-1] == "已选择：PostgreSQL。"
    answer = json.loads((tmp_path / "a").read_text())
    assert answer["selection"]["summary"] == "Selected: PostgreSQL."
