"""Several questions in one call, option previews, long lists and number keys, on the two surfaces
that draw them with the same parts: the page the browser opens and the provide_choice app a host
draws in the conversation (every test runs on both, `[page]` and `[app]`; question_views.py says
where they differ). Also the poll of a batch that returned pending, and the problems of a batch the
server refuses, as the app shows them.

`provide-choice serve --no-browser` is spawned over stdio by the SDK's own client, which declares
MCP Apps (one server for the module, and one more whose calls return pending after a second); the
page's address comes from the call's progress notifications, the app is drawn by the test host
(the official host side of MCP Apps). The person acts by accessible names and keys, as a screen
reader user would.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from app_host import apps_extension
from mcp import Client
from mcp_servers import connected, held, structured
from mcp_types import CallToolResult
from playwright.async_api import Browser, Frame, Locator, Page, expect
from question_clock import forward
from question_views import InApp, OnPage, QuestionView

pytestmark = pytest.mark.asyncio(loop_scope="session")

DESKTOP = {"width": 1100, "height": 1000}
NARROW = {"width": 375, "height": 900}
MAX_WAIT_SECONDS = "1"
"""How long a call of the impatient server waits before it returns pending."""

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


COUNTRY = {
    "id": "country",
    "header": "Country",
    "prompt": "Which country is the shop in?",
    "selection_mode": "single",
    "options": [
        {"id": f"c{number}", "label": label, "recommended": number == 1}
        for number, label in enumerate(COUNTRIES, start=1)
    ],
}

Opener = Callable[[Client, dict[str, int]], AbstractAsyncContextManager[QuestionView]]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("batch-home")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def client(home: Path) -> AsyncIterator[Client]:
    async with held(connected("stdio", home, extensions=[apps_extension()])) as connected_client:
        yield connected_client


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def impatient_client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    """A server whose calls wait at most a second for the person, then return pending."""
    home = tmp_path_factory.mktemp("batch-pending-home")
    server = connected("stdio", home, "--max-wait", MAX_WAIT_SECONDS, extensions=[apps_extension()])
    async with held(server) as connected_client:
        yield connected_client


@pytest.fixture(autouse=True)
def fresh_settings(home: Path) -> None:
    (home / "settings.json").unlink(missing_ok=True)


@pytest.fixture(params=["web", "app"])
def open_surface(request: pytest.FixtureRequest, browser: Browser) -> Opener:
    """`open_surface(client, viewport)`: a browser context showing questions on the surface the
    test runs on (the app's test host is built only for the app's runs)."""
    if request.param == "app":
        bundle: str = request.getfixturevalue("host_bundle")
        return lambda client, viewport: InApp.opened(browser, client, viewport, bundle)
    return lambda client, viewport: OnPage.opened(browser, client, viewport)


@pytest_asyncio.fixture(loop_scope="session")
async def surface(open_surface: Opener, client: Client) -> AsyncIterator[QuestionView]:
    async with open_surface(client, DESKTOP) as opened:
        yield opened


async def response_of(call: asyncio.Task[CallToolResult]) -> dict[str, Any]:
    return structured(await asyncio.wait_for(call, 20))


def question(view: Page | Frame, name: str) -> Locator:
    return view.get_by_role("group", name=name)


async def test_three_questions_at_once_with_previews_answered_and_changed_before_submitting(
    surface: QuestionView,
) -> None:
    call = await surface.ask(BATCH)
    view = surface.view
    database = question(view, "Database Which database should I set up for the orders service?")
    features = question(view, "Features Which features go in the first release?")
    name = question(view, "Service name What should the service be called?")
    for group in (database, features, name):
        await expect(group).to_be_visible()
    submit = view.get_by_role("button", name="Submit")
    # Single-submit needs one question: here a pick only chooses, and Submit waits for the rest.
    await database.get_by_role("radio", name="SQLite").click()
    await expect(submit).to_be_enabled()  # the name's suggestion and the default feature answer
    preview = database.get_by_role("region", name="Preview")
    await expect(preview).to_contain_text("sqlite:///orders.db")
    await expect(preview.locator("pre code")).to_be_visible()
    # The preview follows the keyboard: focus moves to PostgreSQL, its preview shows.
    await database.get_by_role("radio", name="PostgreSQL").focus()
    await expect(preview).to_contain_text("postgresql://localhost/app")
    # The pointer shows what it moves onto; a list scrolled under it at rest does not (Search's
    # focus below scrolls Features under this pointer).
    await database.get_by_role("radio", name="SQLite").hover()
    await expect(preview).to_contain_text("sqlite:///orders.db")
    features_preview = features.get_by_role("region", name="Preview")
    await features.get_by_role("checkbox", name="Search").focus()
    await expect(features_preview.locator("pre")).to_contain_text("+ GET /search?q=")
    await features.get_by_role("checkbox", name="Login").focus()
    await expect(features_preview.get_by_role("table")).to_be_visible()
    await features.get_by_role("checkbox", name="Search").check()
    await name.get_by_label("Your answer").fill("billing")
    # Going back: the first answer is changed before submitting.
    await database.get_by_role("radio", name="PostgreSQL").check()
    await surface.keep_screenshot("batch")
    assert await surface.accessibility_problems() == []
    await submit.click()
    await expect(view.get_by_role("heading", name=surface.sent)).to_be_visible()
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
    assert response["selection"]["transport"] == surface.transport
    assert response["selection"]["summary"].startswith(
        "Answered 3 questions. Database: Selected: PostgreSQL."
    )


async def test_submit_waits_with_its_reason_until_every_question_is_answerable(
    surface: QuestionView,
) -> None:
    no_suggestion = NAME | {"placeholder": None}
    del no_suggestion["placeholder"]
    call = await surface.ask(BATCH | {"questions": [DATABASE, FEATURES, no_suggestion]})
    view = surface.view
    submit = view.get_by_role("button", name="Submit")
    await expect(submit).to_be_disabled()
    await expect(submit).to_have_accessible_description(
        "Database: Choose exactly 1 option (0 chosen)"
    )
    await (
        question(view, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await expect(submit).to_have_accessible_description("Service name: Type an answer to submit.")
    await view.get_by_label("Your answer").fill("orders-api")
    await expect(submit).to_be_enabled()
    await submit.click()
    response = await response_of(call)
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], ["auth"], []]
    assert response["answers"][2]["custom_input"] == "orders-api"


async def test_a_batch_of_one_single_question_submits_on_the_pick_and_numbers_choose(
    surface: QuestionView,
) -> None:
    call = await surface.ask({"title": "One", "questions": [DATABASE]})
    view = surface.view
    database = question(view, "Database Which database should I set up for the orders service?")
    await expect(view.get_by_role("button", name="Submit")).to_be_hidden()
    radios = database.get_by_role("radio")
    await expect(radios.nth(0)).to_have_attribute("aria-keyshortcuts", "1")
    await expect(radios.nth(2)).to_have_attribute("aria-keyshortcuts", "3")
    await expect(
        database.get_by_text("Keys: 1 to 3 choose the option with that number.")
    ).to_be_visible()
    await radios.nth(0).focus()
    await surface.keyboard.press("2")
    response = await response_of(call)
    assert response["answers"][0]["selected_ids"] == ["lite"]


async def test_six_questions_mixing_the_modes_and_number_keys_toggle_in_the_focused_one(
    surface: QuestionView,
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
    call = await surface.ask({"title": "Six", "questions": questions})
    view = surface.view
    extras = question(view, "Extras Which features go in the first release?")
    for group_name in (
        "Database Which",
        "Features Which",
        "Service name",
        "Which region",
        "Extras",
        "Cache",
    ):
        await expect(view.get_by_role("group", name=group_name)).to_be_visible()
    await extras.get_by_role("checkbox", name="Login").focus()
    await surface.keyboard.press("3")
    await surface.keyboard.press("2")
    await surface.keyboard.press("3")  # toggled back
    await expect(extras.get_by_role("checkbox", name="Search")).to_be_checked()
    await expect(extras.get_by_role("checkbox", name="Export")).not_to_be_checked()
    features = question(view, "Features Which features go in the first release?")
    await expect(features.get_by_role("checkbox", name="Search")).not_to_be_checked()
    await (
        question(view, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="PostgreSQL")
        .check()
    )
    await (
        question(view, "Cache Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await (
        question(view, "Which region, or another?")
        .get_by_label("Or type your own answer")
        .fill("Asia")
    )
    await view.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    assert [answer["id"] for answer in response["answers"]] == [q["id"] for q in questions]
    answers = {answer["id"]: answer for answer in response["answers"]}
    assert answers["extras"]["selected_ids"] == ["search"]
    assert answers["hybrid"]["custom_input"] == "Asia"
    assert answers["cache"]["selected_ids"] == ["lite"]
    assert answers["name"]["placeholder_used"] is True


@pytest.mark.parametrize("in_a_batch", [False, True], ids=["alone", "beside-another-question"])
async def test_a_forty_option_list_is_filtered_and_the_hidden_count_is_announced(
    surface: QuestionView, in_a_batch: bool
) -> None:
    alone = {key: value for key, value in COUNTRY.items() if key not in ("id", "header")}
    request: dict[str, Any] = (
        {"title": "Where", "questions": [COUNTRY, NAME]}
        if in_a_batch
        else {"title": "Where", "single_submit_mode": False} | alone
    )
    call = await surface.ask(request)
    view = surface.view
    filter_field = view.get_by_label("Filter options")
    await expect(filter_field).to_be_visible()
    await filter_field.fill("country 3")
    visible = view.get_by_role("radio")
    await expect(visible).to_have_count(10)  # 30 to 39: the hidden ones leave the page's tree
    await expect(
        view.get_by_role("status").filter(has_text="30 of 40 options hidden by the filter")
    ).to_be_visible()
    await expect(visible.nth(1)).to_have_attribute("aria-keyshortcuts", "2")
    await visible.nth(0).focus()
    await surface.keyboard.press("2")
    await expect(view.get_by_role("radio", name="Country 31")).to_be_checked()
    await view.get_by_role("button", name="Submit").click()
    response = await response_of(call)
    if in_a_batch:
        assert [answer["selected_ids"] for answer in response["answers"]] == [["c31"], []]
        assert response["answers"][1]["placeholder_used"] is True
    else:  # one question: today's response, with no answers
        assert response["selection"]["selected_ids"] == ["c31"]
        assert "answers" not in response


async def test_cancel_half_way_keeps_what_was_answered(surface: QuestionView, home: Path) -> None:
    (home / "settings.json").write_text(json.dumps({"timeout_action": "return_defaults"}))
    call = await surface.ask(BATCH)
    view = surface.view
    await (
        question(view, "Database Which database should I set up for the orders service?")
        .get_by_role("radio", name="SQLite")
        .check()
    )
    await expect(view.get_by_text(surface.saved)).to_be_visible()
    await view.get_by_role("button", name="Cancel").click()
    response = await response_of(call)
    assert response["action_status"] == "cancelled"
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], ["auth"], []]
    assert response["selection"]["summary"].startswith(
        "Cancelled by the person after 1 of 3 questions. Database: Selected: SQLite. "
        "Features: Not answered; defaults returned, not chosen by the person: Login."
    )


async def test_timeout_half_way_keeps_what_was_answered(surface: QuestionView) -> None:
    call = await surface.ask(BATCH | {"timeout_seconds": 120})
    view = surface.view
    await (
        question(view, "Features Which features go in the first release?")
        .get_by_role("checkbox", name="Export")
        .check()
    )
    await expect(view.get_by_text(surface.saved)).to_be_visible()  # the draft reached the server
    forward(120)  # then nobody answers until the deadline
    response = await response_of(call)
    assert response["action_status"] == "timeout"
    assert [answer["selected_ids"] for answer in response["answers"]] == [
        [],
        ["auth", "export"],
        [],
    ]
    assert "The deadline passed after 1 of 3 questions." in response["selection"]["summary"]
    await expect(view.get_by_role("heading", name="Timed out")).to_be_visible()


async def test_a_batch_past_max_wait_returns_pending_and_the_poll_gets_its_answers(
    open_surface: Opener, impatient_client: Client
) -> None:
    async with open_surface(impatient_client, DESKTOP) as surface:
        call = await surface.ask(BATCH)
        pending = await response_of(call)
        assert pending["action_status"] == "pending"
        assert [answer["selected_ids"] for answer in pending["answers"]] == [[], [], []]
        # The person answers after the call returned: the question waits for them.
        view = surface.view
        await (
            question(view, "Database Which database should I set up for the orders service?")
            .get_by_role("radio", name="SQLite")
            .check()
        )
        await view.get_by_label("Your answer").fill("billing")
        await view.get_by_role("button", name="Submit").click()
        await expect(view.get_by_role("heading", name=surface.sent)).to_be_visible()
        poll = surface.poll(pending["selection"]["session_id"])
        response = structured(await asyncio.wait_for(poll, 20))
    assert response["action_status"] == "selected"
    assert response["selection"]["transport"] == surface.transport
    assert [answer["selected_ids"] for answer in response["answers"]] == [["lite"], ["auth"], []]
    assert response["answers"][2]["custom_input"] == "billing"
    assert response["selection"]["summary"].startswith("Answered 3 questions.")


async def test_on_a_narrow_screen_the_preview_is_below_the_list(
    open_surface: Opener, client: Client
) -> None:
    async with open_surface(client, NARROW) as surface:
        call = await surface.ask({"title": "One", "questions": [FEATURES]})
        view = surface.view
        features = question(view, "Features Which features go in the first release?")
        await expect(features).to_be_visible()
        preview = await features.get_by_role("region", name="Preview").bounding_box()
        options = await features.get_by_role("list").bounding_box()
        assert preview is not None
        assert options is not None
        assert preview["y"] >= options["y"] + options["height"]
        await view.get_by_role("button", name="Cancel").click()
        await response_of(call)


@pytest.mark.parametrize("open_surface", ["app"], indirect=True)
async def test_regression_the_app_lists_every_problem_of_a_broken_batch_one_a_line(
    surface: QuestionView,
) -> None:
    # The app put the server's problems in one paragraph, where its line breaks collapse: they
    # ran together in one line. (The page is never drawn for a request the server refuses.)
    long_header = "Database for the orders service"
    questions = [
        DATABASE | {"header": long_header},
        FEATURES | {"id": "db"},
        NAME | {"min_selections": 2},
    ]
    call = await surface.ask(BATCH | {"questions": questions})
    assert (await asyncio.wait_for(call, 20)).is_error
    problems = surface.view.get_by_role("status").filter(has_text="Invalid provide_choice request")
    await expect(problems).to_be_visible()
    assert (await problems.inner_text()).splitlines()[1:] == [
        "- questions ids must be unique, repeated: 'db'",
        f"- db: header must be at most 30 characters (a short chip), got {len(long_header)}",
        "- name: min_selections must be 0 or left out for text_input (it has no options), got 2",
    ]
    await expect(surface.view.get_by_role("radio")).to_have_count(0)
    await expect(surface.view.get_by_role("button", name="Submit")).to_be_hidden()
