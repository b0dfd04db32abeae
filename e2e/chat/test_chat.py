"""The chat page in a real Chromium, served by `choices-chat --agent script` as a user would run it.

One server for the module; every test gets a fresh browser context, so a fresh cookie and with it a
fresh conversation.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from accessibility import serious_violations
from chat_harness import VIEWPORT, chat_screenshot, chat_server
from playwright.async_api import Browser, Dialog, Locator, Page, expect

from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.asyncio(loop_scope="session")

XSS_LABEL = "<img src=x onerror=alert(1)>"
LONG_LINE = "services = [" + ", ".join(f'"service-{number}"' for number in range(40)) + "]"


def fence(question: str, options: list[tuple[str, str]], context: str | None = None) -> str:
    choices = [{"label": label, "value": value} for label, value in options]
    prompt = {"question": question, "options": choices, "context": context}
    return render_fence(ChoicePrompt.model_validate(prompt))


SCRIPT = [
    "Hello! I'm setting up your **new service**. First, a decision:\n\n"
    + fence(
        "Which database should the service use?",
        [("PostgreSQL", "postgres"), ("SQLite", "sqlite")],
        "Both work with the ORM; PostgreSQL scales further.",
    ),
    "Noted: **{{user}}**.\n\n"
    + fence(
        "Where should it run?",
        [("Kubernetes", "k8s"), ("A single VM", "vm"), ("Serverless", "serverless")],
    ),
    "Understood: {{user}}. The plan so far:\n\n"
    "| Setting | Value |\n| --- | --- |\n| Database | PostgreSQL |\n| Runtime | Python 3.11 |\n\n"
    + fence(
        "Shall I create the repository now?",
        [("Yes, create it", "create"), ("Not yet", "later")],
        "You can change any of this later.",
    ),
    'Here is the config:\n\n```toml\n[service]\nname = "orders"\n```\n\n'
    f"And the list, on one long line:\n\n```python\n{LONG_LINE}\n```\n\n"
    "- one more question\n- and one broken block\n\n"
    + fence("Pick a label", [(XSS_LABEL, "xss"), ("Plain", "plain")])
    + '\n\nAnd a broken block:\n\n```choices\n{"question": "Broken", "options": []}\n```',
    "Done with {{user}}.",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    workdir = tmp_path_factory.mktemp("chat-script")
    script = workdir / "script.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    with chat_server(["--agent", "script", "--script", str(script)], workdir) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser, server: str) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(server)
    await expect(group(page, "Which database should the service use?")).to_be_visible()
    yield page
    await context.close()


def group(page: Page, question: str) -> Locator:
    return page.get_by_role("group", name=question)


def option(page: Page, question: str, label: str) -> Locator:
    return group(page, question).get_by_role("button", name=label, exact=True)


def user_messages(page: Page) -> Locator:
    return page.get_by_role("log").locator(".chat-message--user .chat-bubble")


async def type_message(page: Page, text: str) -> None:
    await page.get_by_role("textbox", name="Message").fill(text)
    await page.keyboard.press("Enter")


async def expect_block(page: Page, question: str, pressed: list[str], disabled: str) -> None:
    buttons = group(page, question).get_by_role("button")
    await expect(buttons).to_have_count(len(pressed))
    for index, state in enumerate(pressed):
        await expect(buttons.nth(index)).to_have_attribute("aria-pressed", state)
        await expect(buttons.nth(index)).to_have_attribute("aria-disabled", disabled)


async def test_the_page_has_a_language_a_log_and_a_composer(page: Page) -> None:
    assert (await page.get_attribute("html", "lang") or "").startswith("en")
    await expect(page).to_have_title("(1) Choices chat")  # its choices block waits
    await expect(page.get_by_role("log")).to_contain_text("First, a decision:")
    await expect(page.get_by_role("textbox", name="Message")).to_be_editable()
    await expect(page.get_by_role("button", name="Send")).to_be_enabled()
    await expect(
        group(page, "Which database should the service use?")
    ).to_have_accessible_description("Both work with the ORM; PostgreSQL scales further.")
    await expect_block(page, "Which database should the service use?", ["false", "false"], "false")


async def test_clicking_an_option_sends_its_value_and_locks_the_block(page: Page) -> None:
    await option(page, "Which database should the service use?", "PostgreSQL").click()
    await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    await expect(user_messages(page)).to_have_text(["postgres"])
    await expect_block(page, "Which database should the service use?", ["true", "false"], "true")
    # A disabled option stays clickable for the mouse, but nothing is sent.
    await option(page, "Which database should the service use?", "SQLite").click(force=True)
    await type_message(page, "hello")
    await expect(page.get_by_role("log")).to_contain_text("Understood: hello.")
    await expect(user_messages(page)).to_have_text(["postgres", "hello"])
    await expect_block(page, "Which database should the service use?", ["true", "false"], "true")


async def test_keyboard_only_tab_enter_then_space(page: Page) -> None:
    async def focused_text() -> str:
        return str(await page.evaluate("document.activeElement.textContent.trim()"))

    for _ in range(10):
        await page.keyboard.press("Tab")
        if await focused_text() == "PostgreSQL":
            break
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    await page.keyboard.press("Tab")
    assert await focused_text() == "SQLite"  # disabled options stay in the Tab order
    await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")
    assert await focused_text() == "A single VM"
    await page.keyboard.press("Space")
    await expect(page.get_by_role("log")).to_contain_text("Understood: vm.")
    await expect(user_messages(page)).to_have_text(["postgres", "vm"])
    await expect_block(page, "Where should it run?", ["false", "true", "false"], "true")


async def test_a_typed_message_makes_the_open_block_outdated(page: Page) -> None:
    await type_message(page, "Let me think about it")
    await expect(page.get_by_role("log")).to_contain_text("Noted: Let me think about it.")
    await expect(user_messages(page)).to_have_text(["Let me think about it"])
    await expect_block(page, "Which database should the service use?", ["false", "false"], "true")
    await expect_block(page, "Where should it run?", ["false"] * 3, "false")


async def test_a_reload_shows_the_same_conversation_and_states(page: Page) -> None:
    await option(page, "Which database should the service use?", "PostgreSQL").click()
    await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    await page.reload()
    await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    await expect(user_messages(page)).to_have_text(["postgres"])
    await expect_block(page, "Which database should the service use?", ["true", "false"], "true")
    await expect_block(page, "Where should it run?", ["false"] * 3, "false")


async def test_the_conversation_outlives_a_restart_of_the_app(
    browser: Browser, tmp_path: Path
) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    arguments = ["--agent", "script", "--script", str(script)]
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    with chat_server(arguments, tmp_path) as url:
        await page.goto(url)
        await option(page, "Which database should the service use?", "PostgreSQL").click()
        await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    with chat_server(arguments, tmp_path) as url:  # the same storage, and a new port
        await page.goto(url)
        await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
        await expect(user_messages(page)).to_have_text(["postgres"])
        await expect_block(
            page, "Which database should the service use?", ["true", "false"], "true"
        )
        await option(page, "Where should it run?", "A single VM").click()
        await expect(page.get_by_role("log")).to_contain_text("Understood: vm.")
    await context.close()


async def test_a_double_click_sends_one_message(page: Page) -> None:
    await option(page, "Which database should the service use?", "SQLite").dblclick()
    await expect(page.get_by_role("log")).to_contain_text("Noted: sqlite.")
    await type_message(page, "next")
    await expect(page.get_by_role("log")).to_contain_text("Understood: next.")
    await expect(user_messages(page)).to_have_text(["sqlite", "next"])


async def reach_the_reply_with_code(page: Page) -> None:
    for text, reply in [("a", "Noted: a."), ("b", "Understood: b."), ("c", "Here is the config")]:
        await type_message(page, text)
        await expect(page.get_by_role("log")).to_contain_text(reply)


async def test_agent_text_is_text_and_a_malformed_block_is_a_code_block(page: Page) -> None:
    dialogs: list[str] = []

    async def record(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.dismiss()

    page.on("dialog", record)
    await reach_the_reply_with_code(page)
    label_button = option(page, "Pick a label", XSS_LABEL)
    await expect(label_button).to_have_text(XSS_LABEL)
    await expect(page.locator("img")).to_have_count(0)
    await expect(page.get_by_role("log").locator("pre code").first).to_have_text(
        '[service]\nname = "orders"\n'
    )
    await expect(page.get_by_role("log").locator("li")).to_have_text(
        ["one more question", "and one broken block"]
    )
    malformed = page.get_by_role("log").locator("pre code.language-choices")
    await expect(malformed).to_contain_text('{"question": "Broken", "options": []}')
    await expect(page.get_by_role("group", name="Broken")).to_have_count(0)
    await expect(page.locator(".chat-message--error")).to_have_count(0)
    await label_button.click()
    await expect(page.get_by_role("log")).to_contain_text("Done with xss.")
    assert dialogs == []


async def test_no_serious_accessibility_violations_and_the_readme_screenshot(page: Page) -> None:
    await option(page, "Which database should the service use?", "PostgreSQL").click()
    await expect(page.get_by_role("log")).to_contain_text("Noted: postgres.")
    await type_message(page, "Let me check with the team first")
    await expect(group(page, "Shall I create the repository now?")).to_be_visible()
    await expect(page.get_by_role("table")).to_be_visible()
    await expect_block(page, "Which database should the service use?", ["true", "false"], "true")
    await expect_block(page, "Where should it run?", ["false"] * 3, "true")
    await expect_block(page, "Shall I create the repository now?", ["false"] * 2, "false")
    # The log has scrolled by itself: the newest block is in view, the greeting has left it.
    await expect(option(page, "Shall I create the repository now?", "Not yet")).to_be_in_viewport()
    await expect(page.get_by_text("First, a decision:")).not_to_be_in_viewport()

    assert await serious_violations(page) == []

    await chat_screenshot(page, "chat.png")


async def test_regression_wide_code_block_is_keyboard_scrollable(page: Page) -> None:
    """A code block wider than the message scrolls sideways: axe's scrollable-region-focusable
    (serious) failed until such blocks could take focus."""
    await reach_the_reply_with_code(page)
    wide = page.get_by_role("log").locator("pre", has_text="service-39")
    assert await wide.evaluate("pre => pre.scrollWidth > pre.clientWidth"), "it must overflow"
    await wide.focus()
    await expect(wide).to_be_focused()
    for _ in range(5):
        await page.keyboard.press("ArrowRight")
    await page.wait_for_function("pre => pre.scrollLeft > 0", arg=await wide.element_handle())
    assert await serious_violations(page) == []
    malformed = page.get_by_role("log").locator("pre", has_text='"question": "Broken"')
    await expect(malformed).to_have_attribute("tabindex", "0")


@pytest.mark.parametrize(
    ("locale", "send", "new_chat", "lang"),
    [("zh-CN", "发送", "新对话", "zh-CN"), ("fr-FR", "Send", "New chat", "en-US")],
)
async def test_the_chat_speaks_the_browsers_language_and_shows_the_agents_words_as_written(
    browser: Browser, server: str, locale: str, send: str, new_chat: str, lang: str
) -> None:
    context = await browser.new_context(viewport=VIEWPORT, locale=locale)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(server)
    await expect(page.get_by_role("button", name=send)).to_be_visible()
    await expect(page.get_by_role("button", name=new_chat)).to_be_visible()
    assert await page.get_attribute("html", "lang") == lang
    await expect(page.get_by_role("log")).to_contain_text("First, a decision:")
    assert await serious_violations(page) == []
    await option(page, "Which database should the service use?", "PostgreSQL").click()
    await expect(user_messages(page)).to_have_text(["postgres"])
    await context.close()


async def test_lang_pins_the_chats_language_whatever_the_browser_says(
    browser: Browser, tmp_path: Path
) -> None:
    with chat_server(["--agent", "demo", "--lang", "zh-CN"], tmp_path) as url:
        context = await browser.new_context(viewport=VIEWPORT, locale="en-US")  # type: ignore[arg-type]
        page = await context.new_page()
        await page.goto(url)
        await expect(page.get_by_role("button", name="发送")).to_be_visible()
        await expect(page.get_by_role("textbox", name="消息")).to_be_editable()
        assert await page.get_attribute("html", "lang") == "zh-CN"  # Quasar's name of zh-Hans
        # The title in Chinese, after the count of the choices waiting (the greeting's), if any.
        await expect(page).to_have_title(re.compile(r"^(\(\d+\) )?选项对话$"))
        await context.close()
