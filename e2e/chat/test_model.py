"""`choices-chat --agent llm` in a real Chromium, against a real OpenAI-compatible HTTP server.

The chat runs as a user would run it, `choices-chat --agent llm --model openai:... --base-url
http://127.0.0.1:PORT/v1`, and talks to `ModelServer`, which streams the replies each test queues in the
Chat Completions format and keeps what it was sent. One of each for the module; every test gets a
fresh browser context, so a fresh conversation.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

import pytest_asyncio
from accessibility import serious_violations
from chat_harness import VIEWPORT, chat_screenshot, chat_server, log, option, send
from model_server import ModelServer, Reply
from playwright.async_api import Browser, Page, expect

from chat_ui._agents.llm._agent import DEFAULT_SYSTEM_PROMPT

pytestmark = pytest.mark.asyncio(loop_scope="session")

MODEL = "qwen2.5:7b"
DATABASE = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
    "context": "Both work with the ORM; PostgreSQL scales further.",
}


@pytest.fixture(scope="module")
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server


@pytest.fixture(scope="module")
def chat_url(model_server: ModelServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    arguments = ["--agent", "llm", "--model", f"openai:{MODEL}", "--base-url"]
    workdir = tmp_path_factory.mktemp("chat-llm")
    with chat_server([*arguments, model_server.base_url], workdir) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser, chat_url: str, model_server: ModelServer) -> AsyncIterator[Page]:
    model_server.replies.clear()
    model_server.requests.clear()
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(chat_url)
    await expect(page.get_by_role("log")).to_contain_text(f"You are chatting with {MODEL}")
    yield page
    await context.close()


def sent_messages(model_server: ModelServer) -> list[dict[str, Any]]:
    """The messages of the last request, without the system prompt."""
    messages: list[dict[str, Any]] = model_server.requests[-1]["messages"]
    assert messages[0] == {"role": "system", "content": DEFAULT_SYSTEM_PROMPT}
    return messages[1:]


async def test_text_then_a_call_stream_in_and_the_pick_goes_back_to_the_model(
    page: Page, model_server: ModelServer
) -> None:
    gate = threading.Event()
    text = ["Two databases ", "fit this ", "service."]
    model_server.replies.append(Reply(text=text, arguments=DATABASE, gate=gate))
    await send(page, "Set up a service")
    preparing = page.get_by_text("preparing choices...")
    # The call's arguments are half sent, and stay so until the gate opens: a busy machine may
    # take a while to show it, never to take it away.
    await expect(preparing).to_be_visible(timeout=15_000)
    reply = log(page).locator(".chat-message--assistant").last
    await expect(reply).to_contain_text("Two databases fit this service.")
    shown = await reply.inner_text()
    assert shown.index("Two databases") < shown.index("preparing choices..."), "text, then block"
    gate.set()
    await expect(option(page, DATABASE["question"], "PostgreSQL")).to_be_visible()
    await expect(preparing).to_have_count(0)
    request = model_server.requests[-1]
    assert request["stream"] is True
    assert [tool["function"]["name"] for tool in request["tools"]] == ["present_choices"]

    model_server.replies.append(Reply(text=["PostgreSQL ", "it is."]))
    await option(page, DATABASE["question"], "PostgreSQL").click()
    await expect(log(page)).to_contain_text("PostgreSQL it is.")
    user_said, asked, returned, picked = sent_messages(model_server)
    assert user_said == {"role": "user", "content": "Set up a service"}
    assert asked["role"] == "assistant"
    assert asked["content"] == "Two databases fit this service."
    (call,) = asked["tool_calls"]
    assert call["id"] == "call_choices_1"
    assert call["function"]["name"] == "present_choices"
    assert call["function"]["arguments"].replace(" ", "") == (
        '{"question":"Which database should the service use?","options":[{"label":"PostgreSQL",'
        '"value":"postgres"},{"label":"SQLite","value":"sqlite"}],'
        '"context":"Both work with the ORM; PostgreSQL scales further."}'
    ).replace(" ", "")
    assert returned["role"] == "tool"
    assert returned["tool_call_id"] == "call_choices_1"
    assert picked == {"role": "user", "content": "postgres"}

    await page.reload()
    await expect(log(page)).to_contain_text("PostgreSQL it is.")
    await expect(log(page)).to_contain_text("Two databases fit this service.")
    chosen = option(page, DATABASE["question"], "PostgreSQL")
    await expect(chosen).to_have_attribute("aria-pressed", "true")
    await expect(chosen).to_have_attribute("aria-disabled", "true")


async def test_an_http_401_is_said_by_the_app_and_the_chat_goes_on(
    page: Page, model_server: ModelServer
) -> None:
    model_server.replies.append(Reply(status=401))
    await send(page, "Hello?")
    alert = page.get_by_role("alert")
    await expect(alert).to_contain_text("The model could not reply")
    await expect(alert).to_contain_text("refused the API key (HTTP 401)")
    await expect(alert).to_contain_text("OPENAI_API_KEY")
    await expect(alert).not_to_contain_text("Traceback")
    await expect(log(page).locator(".chat-message--assistant")).to_have_count(1)  # the greeting
    model_server.replies.append(Reply(text=["Now it works."]))
    await send(page, "Hello again")
    await expect(log(page)).to_contain_text("Now it works.")
    await expect(log(page).locator(".chat-message--user .chat-bubble")).to_have_text(
        ["Hello?", "Hello again"]
    )
    assert sent_messages(model_server) == [
        {"role": "user", "content": "Hello?"},
        {"role": "user", "content": "Hello again"},
    ]


async def test_a_stopped_server_is_said_by_the_app_and_the_chat_goes_on_when_it_is_back(
    page: Page, model_server: ModelServer
) -> None:
    model_server.stop()
    try:
        await send(page, "Are you there?")
        alert = page.get_by_role("alert")
        await expect(alert).to_contain_text(
            f"cannot connect to the model server at {model_server.base_url}/"
        )
        await expect(alert).to_contain_text("Is it running?")
    finally:
        model_server.start()
    model_server.replies.append(Reply(text=["I'm back."]))
    await send(page, "And now?")
    await expect(log(page)).to_contain_text("I'm back.")


async def test_no_serious_accessibility_violations_and_the_readme_screenshot(
    page: Page, model_server: ModelServer
) -> None:
    language = {
        "question": "Which language should the service be written in?",
        "context": "I'll pick the framework and the tooling to match.",
        "options": [
            {"label": "Python", "value": "Python"},
            {"label": "TypeScript", "value": "TypeScript"},
            {"label": "Go", "value": "Go"},
        ],
    }
    hosting = {
        "question": "Where should it run?",
        "context": "This decides how I package it.",
        "options": [
            {"label": "A container", "value": "In a container"},
            {"label": "Serverless", "value": "As a serverless function"},
            {"label": "A plain VM", "value": "On a plain VM"},
        ],
    }
    model_server.replies += [
        Reply(text=["Happy to help! ", "The first decision shapes the rest:"], arguments=language),
        Reply(
            text=[
                "**Python** it is. The plan so far:\n\n",
                "- FastAPI for the HTTP layer\n- `uv` for dependencies\n",
                "- pytest with a test per endpoint\n\nOne more thing:",
            ],
            arguments=hosting,
            call_id="call_choices_2",
        ),
    ]
    await send(page, "I'd like to start a new web service.")
    await option(page, language["question"], "Python").click()
    await expect(option(page, hosting["question"], "A container")).to_be_visible()
    await expect(option(page, language["question"], "Python")).to_have_attribute(
        "aria-pressed", "true"
    )
    assert await serious_violations(page) == []

    await chat_screenshot(page, "chat-llm.png")
