"""present_choices as an MCP App, in the test host built on the official host side: drawn from its
tool input, a click sent as the person's message, a refused message, the keyboard alone, both
themes, and no request to the network."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from accessibility import serious_violations
from app_host import AppHost, apps_extension
from mcp import Client
from mcp_servers import held
from playwright.async_api import Browser, Frame, expect
from screenshots import keep_screenshot

from provide_choice import create_server

pytestmark = pytest.mark.asyncio(loop_scope="session")

ARGUMENTS = {
    "question": "Which database should I set up?",
    "context": "Both work with the ORM; PostgreSQL scales further.",
    "options": [
        {"label": "PostgreSQL", "value": "Use PostgreSQL"},
        {"label": "SQLite", "value": "Use SQLite"},
        {"label": "<b>Ask me later</b>", "value": "  Ask me later  "},
    ],
}
LABELS = ["PostgreSQL", "SQLite", "<b>Ask me later</b>"]
NOT_SENT = "Not sent: the conversation did not take your choice. Choose again, or type your answer."


@pytest_asyncio.fixture(loop_scope="session")
async def host(browser: Browser, host_bundle: str) -> AsyncIterator[AppHost]:
    client = Client(create_server(), extensions=[apps_extension()])
    async with held(client) as connected, AppHost.opened(browser, connected, host_bundle) as opened:
        yield opened


def group(frame: Frame, question: str = ARGUMENTS["question"]) -> Any:
    return frame.get_by_role("group", name=question)


async def test_the_app_draws_the_question_from_the_tool_input(host: AppHost) -> None:
    call = await host.show("present_choices", ARGUMENTS)
    block = group(host.frame)
    await expect(block).to_be_visible()
    await expect(block).to_have_accessible_description(ARGUMENTS["context"])
    buttons = block.get_by_role("button")
    await expect(buttons).to_have_text(LABELS)
    for label in LABELS:
        await expect(block.get_by_role("button", name=label, exact=True)).to_have_attribute(
            "aria-pressed", "false"
        )
    assert call is not None
    result = await call
    assert not result.is_error
    assert "```choices" in result.content[0].text  # type: ignore[union-attr]
    assert host.foreign_requests() == []
    sizes = await host.recorded("sizes")
    assert sizes, "the app reports the height it needs"


def text_message(value: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": value}]}


async def test_a_click_sends_the_value_as_the_persons_message_then_locks(host: AppHost) -> None:
    await host.show("present_choices", ARGUMENTS)
    block = group(host.frame)
    chosen = block.get_by_role("button", name=LABELS[2], exact=True)
    await chosen.click()
    await host.until_recorded("messages", 1)
    assert await host.recorded("messages") == [text_message("Ask me later")]
    await expect(chosen).to_have_attribute("aria-pressed", "true")
    for button in await block.get_by_role("button").all():
        await expect(button).to_be_disabled()
    # aria-disabled keeps them focusable, so a click still lands: it must change nothing.
    await block.get_by_role("button", name="PostgreSQL").click(force=True)
    await chosen.click(force=True)
    await expect(block.get_by_role("button", name="PostgreSQL")).to_have_attribute(
        "aria-pressed", "false"
    )
    assert len(await host.recorded("messages")) == 1, "a locked block sends nothing more"
    await expect(host.frame.get_by_role("status")).to_be_hidden()


async def test_a_refused_message_brings_the_buttons_back_and_says_so(host: AppHost) -> None:
    await host.show("present_choices", ARGUMENTS)
    await host.refuse_messages()
    block = group(host.frame)
    await block.get_by_role("button", name="SQLite").click()
    status = host.frame.get_by_role("status")
    await expect(status).to_have_text(NOT_SENT)
    for button in await block.get_by_role("button").all():
        await expect(button).to_be_enabled()
        await expect(button).to_have_attribute("aria-pressed", "false")
    await host.refuse_messages(False)
    await block.get_by_role("button", name="PostgreSQL").click()
    await host.until_recorded("messages", 2)
    assert await host.recorded("messages") == [
        text_message("Use SQLite"),
        text_message("Use PostgreSQL"),
    ]
    await expect(status).to_be_hidden()
    await expect(block.get_by_role("button", name="PostgreSQL")).to_have_attribute(
        "aria-pressed", "true"
    )


async def test_the_keyboard_alone_reaches_and_chooses_an_option(host: AppHost) -> None:
    await host.show("present_choices", ARGUMENTS)
    block = group(host.frame)
    await expect(block).to_be_visible()
    keyboard = host.page.keyboard
    await keyboard.press("Tab")
    await expect(block.get_by_role("button", name="PostgreSQL")).to_be_focused()
    await keyboard.press("Tab")
    second = block.get_by_role("button", name="SQLite")
    await expect(second).to_be_focused()
    await keyboard.press("Enter")
    await host.until_recorded("messages", 1)
    assert await host.recorded("messages") == [text_message("Use SQLite")]
    await expect(second).to_be_focused()
    await expect(second).to_have_attribute("aria-pressed", "true")


async def test_a_space_chooses_too(host: AppHost) -> None:
    await host.show("present_choices", ARGUMENTS)
    first = group(host.frame).get_by_role("button", name="PostgreSQL")
    await first.focus()
    await host.page.keyboard.press("Space")
    await host.until_recorded("messages", 1)
    assert await host.recorded("messages") == [text_message("Use PostgreSQL")]


@pytest.mark.parametrize("theme", ["light", "dark"])
async def test_no_serious_accessibility_problem_in_either_theme(host: AppHost, theme: str) -> None:
    await host.show("present_choices", ARGUMENTS, theme=theme)
    block = group(host.frame)
    await expect(block).to_be_visible()
    assert await serious_violations(host.frame) == []
    await block.get_by_role("button", name="SQLite").click()
    await expect(block.get_by_role("button", name="SQLite")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert await serious_violations(host.frame) == []


async def test_the_app_follows_the_hosts_theme_and_colours(host: AppHost) -> None:
    await host.show("present_choices", ARGUMENTS, theme="light")
    await expect(group(host.frame)).to_be_visible()
    body = host.frame.locator("body")
    await expect(body).to_have_css("background-color", "rgb(255, 255, 255)")
    await host.set_theme("dark")
    await expect(body).to_have_css("background-color", "rgb(38, 38, 36)")
    await expect(body).to_have_css("color", "rgb(250, 249, 245)")
    assert await host.frame.evaluate("document.documentElement.style.colorScheme") == "dark"


async def test_the_frame_fits_what_the_app_draws(host: AppHost) -> None:
    long_context = "Why it matters. " * 60
    await host.show("present_choices", ARGUMENTS | {"context": long_context})
    await expect(group(host.frame)).to_be_visible()
    assert await host.fitted_height() > 200


async def test_arguments_the_server_refuses_show_its_problems_and_no_buttons(
    host: AppHost,
) -> None:
    options = [{"label": "Same", "value": "same"}, {"label": "Again", "value": "same"}]
    call = await host.show("present_choices", ARGUMENTS | {"options": options})
    assert call is not None
    assert (await call).is_error
    frame = host.frame
    await expect(frame.get_by_text("These choices could not be shown:")).to_be_visible()
    await expect(frame.get_by_text("values must be unique")).to_be_visible()
    await expect(frame.get_by_role("button")).to_have_count(0)


async def test_screenshot_of_the_app_as_the_host_draws_it(host: AppHost) -> None:
    options = [*ARGUMENTS["options"][:2], {"label": "Ask me later", "value": "Ask me later"}]
    await host.show("present_choices", ARGUMENTS | {"options": options})
    await expect(group(host.frame)).to_be_visible()
    await host.frame.get_by_role("button", name="PostgreSQL").focus()
    await keep_screenshot(host.page.locator("iframe"), "app-present-choices.png")
