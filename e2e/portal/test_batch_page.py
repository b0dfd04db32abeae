"""Several questions on one page, option previews, long lists and number keys, in Chromium.

`provide-choice serve --no-browser` is spawned over stdio by the SDK's own client (one server for
the module); the page's address comes from the call's progress notifications, and the person acts
by accessible names and keys, as a screen reader user would.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from axe_playwright_python.async_playwright import Axe
from mcp import Client
from mcp_servers import call_on_page, held, structured
from mcp_servers import connected as serving
from mcp_types import CallToolResult
from playwright.async_api import Browser, Locator, Page, expect
from screenshots import screenshot_path

pytestmark = pytest.mark.asyncio(loop_scope="module")

DESKTOP = {"width": 1100, "height": 1000}
NARROW = {"width": 375, "height": 900}

CONFIG_PREVIEW = "```yaml\ndatabase:\n  url: postgresql://localhost/app\n```"
DATABASE = {
    "id": "db",
    "header": "Database",
    "prompt": "Which database should I set up for the **orders** service?",
    "selection_mode": "single",
    "options": [
        {
            "id": "pg",
            "label": "PostgreSQL",
            "description": "A server, for many writers",
            "recommended": True,
            "preview": CONFIG_PREVIEW,
        },
        {
            "id": "lite",
            "label": "SQLite",
            "description": "A file, for one writer",
            "preview": "```yaml\ndatabase:\n  url: sqlite:///orders.db\n```",
        },
        {"id": "none", "label": "No database yet"},
    ],
}
FEATURES = {
    "id": "features",
    "header": "Features",
    "prompt": "Which features go in the first release?",
    "selection_mode": "multi",
    "default_selection_ids": ["auth"],
    "options": [
        {
            "id": "auth",
            "label": "Login",
            "recommended": True,
            "preview": "| Route | Auth |\n|---|---|\n| /login | none |",
        },
        {"id": "search", "label": "Search", "preview": "```diff\n+ GET /search?q=\n```"},
        {"id": "export", "label": "Export"},
    ],
}
NAME = {
    "id": "name",
    "header": "Service name",
    "prompt": "What should the service be called?",
    "selection_mode": "text_input",
    "placeholder": "orders",
}
BATCH: dict[str, Any] = {"title": "Project set-up", "questions": [DATABASE, FEATURES, NAME]}
COUNTRIES = [f"Country {number:02d}" for number in range(1, 41)]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("batch-home")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(home: Path) -> AsyncIterator[Client]:
    async with held(serving("stdio", home)) as connected:
        yield connected


@pytest.fixture(autouse=True)
def fresh_settings(home: Path) -> None:
    (home / "settings.json").unlink(missing_ok=True)


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    await context.close()
    assert errors == []


async def ask(client: Client, page: Page, request: dict[str, Any]) -> asyncio.Task[CallToolResult]:
    call, url = await call_on_page(client, request)
    await page.goto(url)
    return call


async def response_of(call: asyncio.Task[CallToolResult]) -> dict[str, Any]:
    return structured(await asyncio.wait_for(call, 20))


def question(page: Page, name: str) -> Locator:
    return page.get_by_role("group", name=name)


async def test_three_questions_on_one_page_with_previews_answered_and_changed_before_submitting(
    client: Client, page: Page
) -> None:
    call = await ask(client, page, BATCH)
    database = question(page, "Database Which database should I set up for the orders service?")
    features = question(page, "Features Which features go in the first release?")
    name = question(page, "Service name What should the service be called?")
    for group in (database, features, name):
        await expect(group).to_be_visible()
    submit = page.get_by_role("button", name="Submit")
    # Single-submit needs one question: here a pick only chooses, and Submit waits for the rest.
    await database.get_by_role("radio", name="SQLite").click()
    await expect(submit).to_be_enabled()  # the name's suggestion and the default feature answer
    preview = database.get_by_role("region", name="Preview")
    await expect(preview).to_contain_text("sqlite:///orders.db")
    await expect(preview.locator("pre code")).to_be_visible()
    # The preview follows the keyboard: focus moves to PostgreSQL, its preview shows.
    await database.get_by_role("radio", name="PostgreSQL").focus()
    await expect(preview).to_contain_text("postgresql://localhost/app")
    features_preview = features.get_by_role("region", name="Preview")
    await features.get_by_role("checkbox", name="Search").focus()
    await expect(features_preview.locator("pre")).to_contain_text("+ GET /search?q=")
    await features.get_by_role("checkbox", name="Login").focus()
    await expect(features_preview.get_by_role("table")).to_be_visible()
    await features.get_by_role("checkbox", name="Search").check()
    await name.get_by_label("Your answer").fill("billing")
    # Going back: the first answer is changed before submitting.
    await database.get_by_role("radio", name="PostgreSQL").check()
    await page.screenshot(path=screenshot_path("page-batch.png"), full_page=True)
    results = await Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    await submit.click()
    await expect(
        page.get_by_role("heading", name="Answer sent, you can close this tab")
    ).to_be_visible()
    response = await response_of(call)
    assert response["action_status"] == "selected"
    assert response["answers"] == [
        {
            "id": "db",
            "selected_ids": ["pg"],
            "custom_input": None,
            "option_annotations": {},
            "placeholder_used": False,
        },
        {
            "id": "features",
            "selected_ids": ["auth", "search"],
            "custom_input": None,
            "option_annotations": {},
            "placeholder_used": False,
        },
        {
            "id": "name",
            "selected_ids": [],
            "custom_input": "billing",
            "option_annotations": {},
            "placeholder_used": False,
        },
    ]
    assert response["selection"]["summary"].startswith(
        "Answered 3 questions. Database: Selected: PostgreSQL."
    )


async def test_submit_waits_with_its_reason_until_every_question_is_answerable(
    client: Client, page: Page
) -> None:
    no_suggestion = NAME | {"placeholder": None}
    del no_suggestion["placeholder"]
    call = await ask(client, page, BATCH | {"questions": [DATABASE, FEATURES, no_suggestion]})
    submit = page.get_by_role("button", name="Submit")
    await expect(submit).to_be_disabled()
    await expect(submit).to_have_accessible_description(
        "Database: Choose exactly 1 option to submit (0 chosen)."
    )
    await (
        question(page, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await expect(submit).to_have_accessible_description("Service name: Type an answer to submit.")
    await page.get_by_label("Your answer").fill("orders-api")
    await expect(submit).to_be_enabled()
    await submit.click()
    response = await response_of(call)
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], ["auth"], []]
    assert response["answers"][2]["custom_input"] == "orders-api"


async def test_a_batch_of_one_single_question_submits_on_the_pick_and_numbers_choose(
    client: Client, page: Page
) -> None:
    call = await ask(client, page, {"title": "One", "questions": [DATABASE]})
    database = question(page, "Database Which database should I set up for the orders service?")
    await expect(page.get_by_role("button", name="Submit")).to_be_hidden()
    radios = database.get_by_role("radio")
    await expect(radios.nth(0)).to_have_attribute("aria-keyshortcuts", "1")
    await expect(radios.nth(2)).to_have_attribute("aria-keyshortcuts", "3")
    await expect(
        database.get_by_text("Keys: 1 to 3 choose the option with that number.")
    ).to_be_visible()
    await radios.nth(0).focus()
    await page.keyboard.press("2")
    response = await response_of(call)
    assert response["answers"][0]["selected_ids"] == ["lite"]


async def test_six_questions_mixing_the_modes_and_number_keys_toggle_in_the_focused_one(
    client: Client, page: Page
) -> None:
    hybrid = {
        "id": "hybrid",
        "prompt": "Which region, or another?",
        "selection_mode": "hybrid",
        "options": [{"id": "eu", "label": "Europe", "recommended": True}],
    }
    questions = [
        DATABASE,
        FEATURES,
        NAME,
        hybrid,
        FEATURES | {"id": "extras", "header": "Extras", "default_selection_ids": []},
        DATABASE | {"id": "cache", "header": "Cache"},
    ]
    call = await ask(client, page, {"title": "Six", "questions": questions})
    extras = question(page, "Extras Which features go in the first release?")
    for group_name in (
        "Database Which",
        "Features Which",
        "Service name",
        "Which region",
        "Extras",
        "Cache",
    ):
        await expect(page.get_by_role("group", name=group_name)).to_be_visible()
    await extras.get_by_role("checkbox", name="Login").focus()
    await page.keyboard.press("3")
    await page.keyboard.press("2")
    await page.keyboard.press("3")  # toggled back
    await expect(extras.get_by_role("checkbox", name="Search")).to_be_checked()
    await expect(extras.get_by_role("checkbox", name="Export")).not_to_be_checked()
    features = question(page, "Features Which features go in the first release?")
    await expect(features.get_by_role("checkbox", name="Search")).not_to_be_checked()
    await (
        question(page, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="PostgreSQL")
        .check()
    )
    await (
        question(page, "Cache Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await (
        question(page, "Which region, or another?")
        .get_by_label("Or type your own answer")
        .fill("Asia")
    )
    await page.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    assert [answer["id"] for answer in response["answers"]] == [q["id"] for q in questions]
    answers = {answer["id"]: answer for answer in response["answers"]}
    assert answers["extras"]["selected_ids"] == ["search"]
    assert answers["hybrid"]["custom_input"] == "Asia"
    assert answers["cache"]["selected_ids"] == ["lite"]
    assert answers["name"]["placeholder_used"] is True


async def test_a_forty_option_list_is_filtered_and_the_hidden_count_is_announced(
    client: Client, page: Page
) -> None:
    countries = {
        "title": "Where",
        "prompt": "Which country is the shop in?",
        "selection_mode": "single",
        "single_submit_mode": False,
        "options": [
            {"id": f"c{number}", "label": label, "recommended": number == 1}
            for number, label in enumerate(COUNTRIES, start=1)
        ],
    }
    call = await ask(client, page, countries)
    filter_field = page.get_by_label("Filter options")
    await expect(filter_field).to_be_visible()
    await filter_field.fill("country 3")
    visible = page.get_by_role("radio")
    await expect(visible).to_have_count(10)  # 30 to 39: the hidden ones leave the page's tree
    await expect(
        page.get_by_role("status").filter(has_text="30 of 40 options hidden by the filter")
    ).to_be_visible()
    await expect(visible.nth(1)).to_have_attribute("aria-keyshortcuts", "2")
    await visible.nth(0).focus()
    await page.keyboard.press("2")
    await expect(page.get_by_role("radio", name="Country 31")).to_be_checked()
    await page.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    assert response["selection"]["selected_ids"] == ["c31"]
    assert "answers" not in response


async def test_cancel_half_way_keeps_what_was_answered(
    client: Client, page: Page, home: Path
) -> None:
    (home / "settings.json").write_text(json.dumps({"timeout_action": "return_defaults"}))
    call = await ask(client, page, BATCH)
    await (
        question(page, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
    await page.get_by_role("button", name="Cancel").click()
    response = await response_of(call)
    assert response["action_status"] == "cancelled"
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], ["auth"], []]
    assert response["selection"]["summary"].startswith(
        "Cancelled by the person after 1 of 3 questions. Database: Selected: SQLite. "
        "Features: Not answered; defaults returned, not chosen by the person: Login."
    )


async def test_timeout_half_way_keeps_what_was_answered(client: Client, page: Page) -> None:
    call = await ask(client, page, BATCH | {"timeout_seconds": 4})
    await (
        question(page, "Features Which features go in the first release?")
        .get_by_role("checkbox", name="Export")
        .check()
    )
    await expect(page.get_by_text("Saved: closing this tab loses nothing.")).to_be_visible()
    response = await response_of(call)
    assert response["action_status"] == "timeout"
    assert [answer["selected_ids"] for answer in response["answers"]] == [
        [],
        ["auth", "export"],
        [],
    ]
    assert "The deadline passed after 1 of 3 questions." in response["selection"]["summary"]
    await expect(page.get_by_role("heading", name="Timed out")).to_be_visible()


async def test_on_a_narrow_screen_the_preview_is_below_the_list(
    client: Client, browser: Browser
) -> None:
    context = await browser.new_context(viewport=NARROW)  # type: ignore[arg-type]
    page = await context.new_page()
    try:
        call = await ask(client, page, {"title": "One", "questions": [FEATURES]})
        features = question(page, "Features Which features go in the first release?")
        preview = await features.get_by_role("region", name="Preview").bounding_box()
        options = await features.get_by_role("list").bounding_box()
        assert preview is not None
        assert options is not None
        assert preview["y"] >= options["y"] + options["height"]
        await page.get_by_role("button", name="Cancel").click()
        await response_of(call)
    finally:
        await context.close()
