"""Many people on one app: each chat's reply streams on its own. One `LLMAgent` serves every page (as
in `choices-chat`), and a model that is slow for one person never holds up another's reply."""

import asyncio
from collections.abc import AsyncIterator

import pytest
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

from nicegui import ui
from nicegui.testing import User
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from waiting import until

from chat_ui import ChatView, LLMAgent, Message

pytestmark = pytest.mark.nicegui_main_file("")


def last_user_text(messages: list[ModelMessage]) -> str:
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    parts = [part for part in request.parts if isinstance(part, UserPromptPart)]
    return str(parts[-1].content)


async def test_a_slow_reply_for_one_person_never_delays_another_s(user: User) -> None:
    slow_model_answers = asyncio.Event()

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        if last_user_text(messages) == "a hard question":
            yield "Let me think"
            await slow_model_answers.wait()
            yield " for a long while."
        else:
            yield "A quick answer."

    agent = LLMAgent(FunctionModel(stream_function=stream))
    views: list[ChatView] = []
    histories: list[list[Message]] = [[], []]

    @ui.page("/")
    def page() -> None:
        views.extend(ChatView(agent, history) for history in histories)  # two people's chats

    await user.open("/")
    slow, quick = views
    await until(lambda: not slow.busy and not quick.busy, "both greetings are done")
    slow_reply = asyncio.get_running_loop().create_task(slow.send("a hard question"))
    await user.should_see("Let me think")
    await asyncio.wait_for(quick.send("an easy one"), timeout=5)  # while the slow one still waits
    assert histories[1][-1]["content"] == "A quick answer."
    assert slow.busy, "the slow reply is still under way"
    slow_model_answers.set()
    await slow_reply
    assert histories[0][-1]["content"] == "Let me think for a long while."
