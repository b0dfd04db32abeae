"""`LLMAgent` with pydantic-ai's offline models: what the person sees, and what the model is given.

Model requests are disallowed: `FunctionModel` and `TestModel` stand in for the model, and a test
that reached a real API would fail.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import pytest
from chat_views import open_chat
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

from nicegui import ui
from nicegui.testing import User
from pydantic_ai import models
from pydantic_ai.exceptions import (
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelNotFoundError,
    ModelRateLimitError,
    ModelTimeoutError,
)
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.providers.openai import OpenAIProvider

from chat_ui import (
    AgentError,
    BlockState,
    ChatView,
    ChoicesAsked,
    ChoicesPreparing,
    LLMAgent,
    Message,
    ReplyChunk,
)
from chat_ui._agents.llm._agent import DEFAULT_SYSTEM_PROMPT
from chat_ui._agents.llm._errors import describe_failure
from chat_ui._agents.llm._messages import TOOL_RETURN, model_messages
from chat_ui._model._reply import ReplyDraft
from chat_ui._nicegui._chat_view import ChatLog
from chat_ui._nicegui._message import AssistantMessage, ErrorMessage
from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.nicegui_main_file("")

DATABASE = {
    "question": "Which database should the service use?",
    "options": [
        {"label": "PostgreSQL", "value": "postgres"},
        {"label": "SQLite", "value": "sqlite"},
    ],
    "context": "Both work with the ORM.",
}
FIVE_OPTIONS = {
    "question": "Which colour?",
    "options": [
        {"label": colour, "value": colour} for colour in ["red", "blue", "green", "cyan", "pink"]
    ],
}
BLANK_LABEL = {
    "question": "Deploy now?",
    "options": [{"label": "Yes", "value": "yes"}, {"label": " ", "value": "no"}],
}

Response = list[str | DeltaToolCalls]


@pytest.fixture(autouse=True)
def no_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "ALLOW_MODEL_REQUESTS", False)


@pytest.fixture
async def user(user: User) -> AsyncIterator[User]:
    yield user
    await asyncio.sleep(0.05)  # the page's last updates, as in test_chat_view.py


def call(arguments: dict[str, Any], call_id: str = "call_1") -> list[DeltaToolCalls]:
    """A `present_choices` call whose arguments arrive in two pieces."""
    text = json.dumps(arguments)
    return [
        {0: DeltaToolCall(name="present_choices", json_args=text[:20], tool_call_id=call_id)},
        {0: DeltaToolCall(json_args=text[20:])},
    ]


class ScriptedModel:
    """Streams `responses` one per request and keeps the messages and instructions of each request."""

    def __init__(self, *responses: Response) -> None:
        self.responses = list(responses)
        self.requests: list[list[ModelMessage]] = []
        self.instructions: list[str | None] = []
        self.model = FunctionModel(stream_function=self.stream)

    async def stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        self.requests.append(messages)
        self.instructions.append(info.instructions)
        for item in self.responses.pop(0):
            yield item


async def chunks(agent: LLMAgent, history: Sequence[Message]) -> list[ReplyChunk]:
    return [chunk async for chunk in agent.reply(history)]


def user_said(text: str) -> list[Message]:
    return [{"role": "user", "content": text}]


async def chat(user: User, agent: LLMAgent, text: str) -> tuple[ChatView, list[Message]]:
    """A chat page whose person has just sent `text`; the reply may still be on its way."""
    view, history = await open_chat(user, agent)
    asyncio.get_running_loop().create_task(view.send(text))
    await user.should_see(text)
    return view, history


def log_items(view: ChatView) -> list[ui.element]:
    log = view.log
    assert isinstance(log, ChatLog)
    return list(log)


async def test_a_valid_call_becomes_the_block_and_ends_the_turn() -> None:
    agent = LLMAgent(TestModel(custom_output_args=DATABASE))
    reply = await chunks(agent, user_said("set up a service"))
    asked = reply[-1]
    assert isinstance(asked, ChoicesAsked)
    assert asked.prompt == ChoicePrompt.model_validate(DATABASE)
    assert asked.call_id


async def test_text_then_a_call_shows_the_text_first_then_the_block(user: User) -> None:
    model = ScriptedModel(["Two options ", "work here.", *call(DATABASE)])
    view, history = await chat(user, LLMAgent(model.model), "Which database?")
    await user.should_see("Which database should the service use?")
    await user.should_see("Two options work here.")
    reply = log_items(view)[-1]
    assert isinstance(reply, AssistantMessage)
    assert [type(child).__name__ for child in reply.body] == ["Html", "ChoiceGroup"]
    assert history[-1] == {
        "role": "assistant",
        "content": "Two options work here.",
        "tool_call": {"id": "call_1", "name": "present_choices", "arguments": DATABASE},
    }
    user.find("PostgreSQL").click()
    await user.should_see("postgres")
    assert reply.body.groups[0].state == BlockState("answered", "postgres")


async def test_the_placeholder_shows_while_the_arguments_stream(user: User) -> None:
    gate = asyncio.Event()
    first, second = call(DATABASE)

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        yield "Let me ask."
        yield first
        await gate.wait()
        yield second

    await chat(user, LLMAgent(FunctionModel(stream_function=stream)), "hi")
    await user.should_see("Let me ask.")
    await user.should_see("preparing choices...")
    await user.should_not_see("Which database should the service use?")
    gate.set()
    await user.should_see("Which database should the service use?")
    await user.should_not_see("preparing choices...")


async def test_an_invalid_call_is_retried_with_the_describe_errors_wording() -> None:
    model = ScriptedModel(call(BLANK_LABEL), ["Sorry, fixed.", *call(DATABASE, "call_2")])
    reply = await chunks(LLMAgent(model.model), user_said("deploy?"))
    assert reply[-1] == ChoicesAsked(ChoicePrompt.model_validate(DATABASE), "call_2")
    assert "Sorry, fixed." in "".join(chunk for chunk in reply if isinstance(chunk, str))
    retry = model.requests[1][-1]
    assert isinstance(retry, ModelRequest)
    (returned,) = retry.parts
    assert isinstance(returned, ToolReturnPart)
    assert returned.tool_call_id == "call_1"
    assert "options[1].label must not be empty" in str(returned.content)


async def test_a_call_still_invalid_after_the_retries_gives_a_note_and_keeps_the_text(
    user: User,
) -> None:
    model = ScriptedModel(*[["Pick one.", *call(FIVE_OPTIONS, f"call_{n}")] for n in range(3)])
    view, history = await chat(user, LLMAgent(model.model, choices_retries=2), "colour?")
    await user.should_see("The assistant's choices could not be shown")
    await user.should_see("options must have 2 to 4 items, got 5")
    assert len(model.requests) == 3, "the first call and two retries, then it stops"
    assert [message["role"] for message in history] == ["assistant", "user", "assistant", "error"]
    assert "tool_call" not in history[2]
    assert history[2]["content"].startswith("Pick one.")
    assert not any(
        isinstance(item, AssistantMessage) and item.body.groups for item in log_items(view)
    )
    assert isinstance(log_items(view)[-1], ErrorMessage)
    assert view.composer.button.enabled


async def test_a_fence_written_in_the_text_still_renders(user: User) -> None:
    fence = render_fence(ChoicePrompt.model_validate(DATABASE))
    model = ScriptedModel([f"No tools here.\n\n{fence[:30]}", fence[30:]])
    _, history = await chat(user, LLMAgent(model.model), "hi")
    await user.should_see("Which database should the service use?")
    await user.should_see("SQLite")
    assert history[-1] == {"role": "assistant", "content": f"No tools here.\n\n{fence}"}


async def test_the_next_turn_gives_the_model_its_call_and_the_pick() -> None:
    model = ScriptedModel(["Hmm. ", *call(DATABASE)], ["PostgreSQL it is."])
    agent = LLMAgent(model.model)
    history: list[Message] = [{"role": "assistant", "content": agent.greeting}]
    history += user_said("Set up a service")
    draft = ReplyDraft()  # what the chat makes of the reply, as it keeps it in history
    for chunk in await chunks(agent, history):
        draft.add(chunk)
    asked = draft.message()
    assert asked is not None
    assert asked["tool_call"] == {"id": "call_1", "name": "present_choices", "arguments": DATABASE}
    history += [json.loads(json.dumps(asked)), *user_said("postgres")]  # as it is stored
    assert "".join(str(c) for c in await chunks(agent, history)) == "PostgreSQL it is."
    sent = model.requests[-1]
    assert [type(message).__name__ for message in sent] == [
        "ModelRequest",
        "ModelResponse",
        "ModelRequest",
    ]
    first, response, answer = sent
    assert isinstance(first, ModelRequest)
    assert [part.content for part in first.parts] == ["Set up a service"]  # no greeting
    assert given_back(response, answer) == (
        ["Hmm."],
        ("present_choices", "call_1", DATABASE),
        ("call_1", TOOL_RETURN),
        "postgres",
    )
    assert model.instructions[-1] == DEFAULT_SYSTEM_PROMPT


def given_back(
    response: ModelMessage, answer: ModelMessage
) -> tuple[list[str], tuple[str, str, dict[str, Any]], tuple[str, Any], Any]:
    """What the model is given of a block it asked: the texts of its response, its call (name, id,
    arguments), then the call's tool return (id, content) and the pick, in the next request."""
    assert isinstance(response, ModelResponse)
    *texts, call = response.parts
    assert isinstance(call, ToolCallPart)
    assert all(isinstance(text, TextPart) for text in texts)
    assert isinstance(answer, ModelRequest)
    tool_return, pick = answer.parts
    assert isinstance(tool_return, ToolReturnPart)
    assert isinstance(pick, UserPromptPart)
    return (
        [text.content for text in texts if isinstance(text, TextPart)],
        (call.tool_name, call.tool_call_id, call.args_as_dict()),
        (tool_return.tool_call_id, tool_return.content),
        pick.content,
    )


def test_the_kept_call_goes_back_as_it_is_kept_whatever_the_text_holds() -> None:
    """The call is data, not the tail of the text: a fence in the text stays text."""
    other = render_fence(ChoicePrompt.model_validate({**DATABASE, "question": "Another?"}))
    history: list[Message] = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": f"Pick:\n\n{other}",
            "tool_call": {"id": "call_7", "name": "present_choices", "arguments": DATABASE},
        },
        {"role": "user", "content": "sqlite"},
    ]
    _request, response, answer = model_messages(history)
    assert given_back(response, answer) == (
        [f"Pick:\n\n{other}"],
        ("present_choices", "call_7", DATABASE),
        ("call_7", TOOL_RETURN),
        "sqlite",
    )


def test_a_fence_the_model_wrote_goes_back_as_text_and_errors_not_at_all() -> None:
    fence = render_fence(ChoicePrompt.model_validate(DATABASE))
    history: list[Message] = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": f"Pick:\n\n{fence}"},
        {"role": "user", "content": "sqlite"},
    ]
    _request, response, pick = model_messages(history)
    assert isinstance(response, ModelResponse)
    assert response.parts == [TextPart(f"Pick:\n\n{fence}")]
    assert isinstance(pick, ModelRequest)
    assert [type(part) for part in pick.parts] == [UserPromptPart]


async def test_a_system_prompt_replaces_the_default() -> None:
    model = ScriptedModel(["ok"])
    await chunks(LLMAgent(model.model, system_prompt="Be brief."), user_said("hi"))
    assert model.instructions == ["Be brief."]


async def test_the_greeting_is_the_app_s_and_calls_no_model() -> None:
    model = ScriptedModel()
    agent = LLMAgent(model.model)
    assert await chunks(agent, []) == [agent.greeting]
    assert model.requests == []


def openai_model() -> OpenAIChatModel:
    provider = OpenAIProvider(base_url="http://127.0.0.1:9/v1", api_key="test")
    return OpenAIChatModel("gpt-test", provider=provider)


def failures() -> Iterator[tuple[Exception, list[str]]]:
    def http(category: Any, status: int, **options: Any) -> ModelHTTPError:
        return ModelHTTPError.for_category(
            category, status_code=status, model_name="gpt-test", **options
        )

    yield http(ModelAuthenticationError, 401), ["refused the API key (HTTP 401)", "OPENAI_API_KEY"]
    yield http(ModelAuthenticationError, 403), ["(HTTP 403)", "OPENAI_API_KEY"]
    yield http(ModelNotFoundError, 404), ["does not know the model 'gpt-test' (HTTP 404)"]
    yield (
        http(ModelRateLimitError, 429, retry_after=12.5),
        ["too many requests (HTTP 429)", "Try again in 13 seconds"],
    )
    yield ModelTimeoutError("gpt-test", "timed out", phase="read"), ["took too long to answer"]
    yield (
        ModelConnectionError("gpt-test", "Connection error.", phase="connect"),
        ["cannot connect to the model server at http://127.0.0.1:9/v1/", "Is it running?"],
    )


@pytest.mark.parametrize(("error", "wording"), list(failures()))
def test_model_errors_are_worded_for_the_person(error: Exception, wording: list[str]) -> None:
    message = describe_failure(error, openai_model())
    assert message.startswith("The model could not reply: ")
    for part in wording:
        assert part in message
    assert "Traceback" not in message


def test_regression_a_base_url_with_credentials_is_shown_without_them() -> None:
    provider = OpenAIProvider(base_url="http://proxy:s3cret@127.0.0.1:9/v1", api_key="test")
    error = ModelConnectionError("gpt-test", "Connection error.", phase="connect")
    message = describe_failure(error, OpenAIChatModel("gpt-test", provider=provider))
    assert "the model server at http://proxy:***@127.0.0.1:9/v1/" in message
    assert "s3cret" not in message


async def test_a_model_error_is_shown_by_the_app_and_the_chat_goes_on(user: User) -> None:
    fail = True

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        if fail:
            raise ModelHTTPError.for_category(
                ModelAuthenticationError, status_code=401, model_name="m"
            )
        yield "Back again."

    view, history = await chat(user, LLMAgent(FunctionModel(stream_function=stream)), "hi")
    await user.should_see("refused the API key (HTTP 401)")
    notice = log_items(view)[-1]
    assert isinstance(notice, ErrorMessage)
    assert notice.props["role"] == "alert"
    assert [message["role"] for message in history] == ["assistant", "user", "error"]
    fail = False
    await view.send("again")
    await user.should_see("Back again.")
    assert [m["role"] for m in history] == ["assistant", "user", "error", "user", "assistant"]


async def test_an_agent_error_is_raised_for_the_chat_to_show() -> None:
    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        raise ModelConnectionError("m", "Connection error.", phase="connect")
        yield ""  # pragma: no cover (makes this an async generator)

    with pytest.raises(AgentError, match="cannot connect to the model server"):
        await chunks(LLMAgent(FunctionModel(stream_function=stream)), user_said("hi"))


async def test_preparing_comes_before_the_block() -> None:
    reply = await chunks(LLMAgent(ScriptedModel(call(DATABASE)).model), user_said("hi"))
    kinds = [type(chunk).__name__ for chunk in reply if chunk != ""]
    assert kinds == ["ChoicesPreparing", "ChoicesAsked"]
    assert ChoicesPreparing() in reply


async def test_a_kept_conversation_shows_the_asked_block_answered_and_gives_back_the_call(
    user: User,
) -> None:
    asked = "Hmm.\n\n" + render_fence(ChoicePrompt.model_validate(DATABASE))
    kept: list[Message] = json.loads(  # as NiceGUI's storage keeps it across a restart
        json.dumps(
            [
                {"role": "assistant", "content": "Hello!"},
                {"role": "user", "content": "Set up a service"},
                {"role": "assistant", "content": asked, "tool_call_id": "call_1"},
                {"role": "user", "content": "sqlite"},
            ]
        )
    )
    views: list[ChatView] = []

    @ui.page("/")
    def page() -> None:
        views.append(ChatView(LLMAgent(ScriptedModel().model), kept))

    await user.open("/")
    await user.should_see("Which database should the service use?")
    (group,) = [
        g
        for item in log_items(views[0])
        if isinstance(item, AssistantMessage)
        for g in item.body.groups
    ]
    assert group.state == BlockState("answered", "sqlite")
    response = model_messages(kept)[1]
    assert isinstance(response, ModelResponse)
    assert [type(part) for part in response.parts] == [TextPart, ToolCallPart]
