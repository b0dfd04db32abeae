"""The embedding example proposed in the documentation works as written (pages of another NiceGUI app)."""

import json
from pathlib import Path
from typing import Any

import pytest
from extras import NEEDS_LLM_EXTRA
from nicegui import ui
from nicegui.testing import User
from redis_server import NEEDS_REDIS_EXTRA, own_redis_server

from chat_ui import BlockState, ChatView, ChoicesMarkdown, DemoAgent, LocalStore

pytestmark = pytest.mark.nicegui_main_file("")

REPLY = """Ready to ship **v2.1**.

```choices
{"question": "Ship it now?", "options": [{"label": "Deploy", "value": "deploy"},
 {"label": "Wait", "value": "wait"}]}
```"""


shown: list[ChoicesMarkdown] = []


def embedding_example() -> None:
    @ui.page("/pick")
    def pick() -> None:
        def chosen(value: str) -> None:
            reply.set_answer(value)  # the block shows the pick once your app takes it
            ui.notify(f"You chose {value}")

        reply = ChoicesMarkdown(REPLY, on_choice=chosen)
        shown.append(reply)

    @ui.page("/chat")
    def chat() -> None:
        ChatView(DemoAgent(chunk_delay=0), store=LocalStore())


async def test_one_message_with_buttons_calls_back_with_the_value(user: User) -> None:
    embedding_example()
    await user.open("/pick")
    await user.should_see("Ship it now?")
    user.find("Deploy").click()
    await user.should_see("You chose deploy")
    assert [group.state for group in shown[-1].groups] == [BlockState("answered", "deploy")]


async def test_a_whole_chat_with_the_demo_agent(user: User) -> None:
    embedding_example()
    await user.open("/chat")
    await user.should_see("What shall we plan together?")
    user.find("A weekend trip").click()
    await user.should_see("Where would you like to go?")


def llm_embedding_example() -> None:
    from chat_ui import LLMAgent

    agent = LLMAgent("openai:gpt-4o-mini")

    @ui.page("/", language="en-US")
    def chat() -> None:
        ChatView(agent, store=LocalStore())


async def test_the_llm_example_greets_and_never_reaches_a_real_model(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = pytest.importorskip("pydantic_ai.models", reason=NEEDS_LLM_EXTRA)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setattr(models, "ALLOW_MODEL_REQUESTS", False)
    llm_embedding_example()
    await user.open("/")
    await user.should_see("You are chatting with")
    user.find(ui.textarea).type("hello")
    user.find("Send").click()
    await user.should_see("The model could not reply")  # the request was refused in-process


def redis_embedding_example(url: str) -> Any:
    """The documented Redis example, but for the agent (the demo one) and the URL: the store."""
    from chat_ui import RedisStore

    store = RedisStore(url)

    @ui.page("/", language="en-US")
    def chat() -> None:
        ChatView(DemoAgent(chunk_delay=0), store=store.conversation())

    return store


async def test_the_redis_example_keeps_the_browser_s_conversation_in_redis(
    user: User, tmp_path: Path
) -> None:
    pytest.importorskip("redis", reason=NEEDS_REDIS_EXTRA)
    import redis

    with own_redis_server(tmp_path / "redis") as server:
        store = redis_embedding_example(server.url)
        await user.open("/")
        await user.should_see("What shall we plan together?")
        user.find("A weekend trip").click()
        await user.should_see("Where would you like to go?")
        with redis.Redis.from_url(server.url) as client:
            (key,) = client.keys("choices-chat:conversation:*")
            kept = [json.loads(item) for item in client.lrange(key, 0, -1)]
        assert [message["role"] for message in kept] == ["assistant", "user", "assistant"]
        await user.open("/")  # the same browser again: its conversation, read from Redis
        await user.should_see("Where would you like to go?")
        await store.close()
