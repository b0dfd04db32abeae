"""Two `choices-chat` instances on one Redis, in a real Chromium: a conversation follows the browser
from one instance to the other, and nothing written is lost when an instance is killed or Redis is
stopped and started again mid-chat.

Both instances serve 127.0.0.1 (on two ports), so one browser context sends both the same session
cookie, as a browser behind a proxy would: the cookie names the conversation, and the shared secret
makes each instance trust the other's cookie.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from accessibility import serious_violations
from chat_harness import ChatProcess, log, option, send_when_ready
from model_server import ModelServer, Reply
from playwright.async_api import Page, expect
from redis_chat import MODEL, instance, stored_conversations
from redis_server import RedisServer
from waiting import until

from chat_ui._nicegui._message import CUT_OFF_NOTE
from chat_ui._session._notices import UNAVAILABLE, UNSAVED
from chat_ui._session._streaming_reply import DRAFT_STALE

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATABASE = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
}
GREETING = f"You are chatting with {MODEL}"
WAIT = 15_000  # ms: a retry after Redis is back comes within a few seconds


@pytest.fixture(scope="module")
def instances(
    redis_server: RedisServer, model_server: ModelServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ChatProcess, ChatProcess]]:
    """Two instances on the same Redis, for the module."""
    with (
        instance(redis_server, model_server, tmp_path_factory.mktemp("first")) as first,
        instance(redis_server, model_server, tmp_path_factory.mktemp("second")) as second,
    ):
        yield first, second


@pytest.fixture(scope="module")
def first(instances: tuple[ChatProcess, ChatProcess]) -> ChatProcess:
    return instances[0]


@pytest.fixture(scope="module")
def second(instances: tuple[ChatProcess, ChatProcess]) -> ChatProcess:
    return instances[1]


async def converse(page: Page, model_server: ModelServer, message: str, answer: str) -> None:
    """Send `message` and wait for the model's `answer`."""
    model_server.replies.append(Reply(text=[answer]))
    await send_when_ready(page, message)
    await expect(log(page)).to_contain_text(answer)


def stored_with(redis_server: RedisServer, text: str) -> list[dict[str, object]]:
    """The one conversation in Redis that holds a message with `text` ([] when none does)."""
    found = [
        conversation
        for conversation in stored_conversations(redis_server)
        if any(text in str(message["content"]) for message in conversation)
    ]
    assert len(found) <= 1
    return found[0] if found else []


async def test_a_conversation_begun_on_one_instance_continues_on_the_other(
    page: Page, first: ChatProcess, second: ChatProcess, model_server: ModelServer
) -> None:
    await page.goto(first.url)
    await expect(log(page)).to_contain_text(GREETING)
    model_server.replies.append(Reply(text=["Two databases fit."], arguments=DATABASE))
    await send_when_ready(page, "Set up a service")
    model_server.replies.append(Reply(text=["PostgreSQL it is."]))
    await expect(page.get_by_role("button", name="Send")).to_be_enabled()  # the reply has ended
    await option(page, DATABASE["question"], "PostgreSQL").click()
    await expect(log(page)).to_contain_text("PostgreSQL it is.")

    await page.goto(second.url)
    await expect(log(page)).to_contain_text("PostgreSQL it is.")
    await expect(log(page)).to_contain_text("Set up a service")
    chosen = option(page, DATABASE["question"], "PostgreSQL")
    await expect(chosen).to_have_attribute("aria-pressed", "true")
    await expect(chosen).to_have_attribute("aria-disabled", "true")
    await expect(log(page).get_by_text(GREETING)).to_have_count(1)  # no second greeting

    await converse(page, model_server, "And a cache?", "A cache too: Redis.")
    sent = model_server.requests[-1]["messages"]
    assert [message["role"] for message in sent[1:]] == [
        "user",
        "assistant",
        "tool",
        "user",
        "assistant",
        "user",
    ], "the second instance gave the model the whole conversation, the call included"

    await page.goto(first.url)
    await expect(log(page)).to_contain_text("A cache too: Redis.")
    await page.get_by_role("button", name="New chat").click()
    await expect(log(page)).not_to_contain_text("A cache too: Redis.")
    await expect(log(page)).to_contain_text(GREETING)
    await page.goto(second.url)  # the conversation is new on every instance
    await expect(log(page)).to_contain_text(GREETING)
    await expect(log(page)).not_to_contain_text("Set up a service")


async def test_an_instance_killed_mid_reply_loses_nothing_and_the_reply_shows_cut_off(
    page: Page,
    second: ChatProcess,
    redis_server: RedisServer,
    model_server: ModelServer,
    tmp_path: Path,
    try_mark: str,
) -> None:
    gate = threading.Event()
    second_question = f"A second question{try_mark}"
    with instance(redis_server, model_server, tmp_path) as doomed:
        await page.goto(doomed.url)
        await converse(page, model_server, "A first question", "A first answer.")
        held = Reply(text=["Half of ", "the second answer"], arguments=DATABASE, gate=gate)
        model_server.replies.append(held)
        await send_when_ready(page, second_question)
        await expect(log(page)).to_contain_text("Half of the second answer")

        def draft_saved() -> bool:
            kept = stored_with(redis_server, second_question)
            return "Half of the second answer" in str(kept[-1:])

        await until(draft_saved, "the streaming reply is saved", seconds=10)
        doomed.process.send_signal(signal.SIGKILL)
        doomed.process.wait(timeout=10)
    gate.set()

    await page.goto(second.url)
    await expect(log(page)).to_contain_text("A first answer.")
    await expect(log(page)).to_contain_text(second_question)
    reply = log(page).locator(".chat-message--assistant").last
    await expect(reply).to_contain_text("Half of the second answer")
    # Taken for a reply still under way until no save of it has come for DRAFT_STALE seconds.
    await expect(reply).to_contain_text(CUT_OFF_NOTE, timeout=(DRAFT_STALE + 5) * 1000)
    assert await serious_violations(page) == []
    await converse(page, model_server, f"{second_question}, again", "The whole second answer.")
    given = [message["content"] for message in model_server.requests[-1]["messages"][1:]]
    assert "Half of the second answer" not in str(given), "a cut-off reply is not given back"
    kept = stored_with(redis_server, second_question)
    assert [message.get("cut_off", False) for message in kept] == [False] * 4 + [True, False, False]


async def test_redis_stopped_and_started_mid_chat_loses_nothing(
    page: Page,
    instances: tuple[ChatProcess, ChatProcess],
    redis_server: RedisServer,
    model_server: ModelServer,
    try_mark: str,
) -> None:
    first, second = instances
    sent_while_down = f"Sent while Redis is down{try_mark}"
    await page.goto(first.url)
    await converse(page, model_server, "Hello", "Before the outage.")

    redis_server.stop()
    try:
        model_server.replies.append(Reply(text=["Answered once saved."]))
        await send_when_ready(page, sent_while_down)
        notice = page.get_by_role("alert").filter(has_text=UNSAVED)
        await expect(notice).to_be_visible(timeout=WAIT)
        box = page.get_by_role("textbox", name="Message")
        await expect(box).to_have_value(sent_while_down)
        await expect(log(page)).not_to_contain_text(sent_while_down)
        assert await serious_violations(page) == []
    finally:
        redis_server.start()
    await expect(log(page)).to_contain_text(sent_while_down, timeout=WAIT)
    await expect(log(page)).to_contain_text("Answered once saved.")
    await expect(notice).to_be_hidden()
    await expect(box).to_have_value("")

    await page.goto(second.url)
    await expect(log(page)).to_contain_text("Answered once saved.")
    kept = stored_with(redis_server, sent_while_down)
    assert [message["content"] for message in kept[1:]] == [
        "Hello",
        "Before the outage.",
        sent_while_down,
        "Answered once saved.",
    ]


async def test_a_conversation_that_cannot_be_read_is_unavailable_never_empty(
    page: Page,
    instances: tuple[ChatProcess, ChatProcess],
    redis_server: RedisServer,
    model_server: ModelServer,
    try_mark: str,
) -> None:
    first, second = instances
    await page.goto(first.url)
    remembered = f"Remember this{try_mark}"
    await converse(page, model_server, remembered, "Kept in Redis.")

    redis_server.stop()
    try:
        await page.goto(second.url)
        unavailable = page.get_by_role("alert").filter(has_text=UNAVAILABLE)
        await expect(unavailable).to_be_visible(timeout=WAIT)
        await expect(page.get_by_role("textbox", name="Message")).to_be_disabled()
        await expect(page.get_by_role("button", name="Send")).to_be_disabled()
        await expect(log(page)).not_to_contain_text(GREETING)
        assert await serious_violations(page) == []
    finally:
        redis_server.start()
    await expect(log(page)).to_contain_text("Kept in Redis.", timeout=WAIT)
    await expect(unavailable).to_be_hidden()
    await expect(page.get_by_role("textbox", name="Message")).to_be_enabled()
    kept = stored_with(redis_server, remembered)
    assert [message["role"] for message in kept] == ["assistant", "user", "assistant"]
