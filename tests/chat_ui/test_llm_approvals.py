"""Approvals with pydantic-ai in the same process (issue 32): `LLMAgent(model, tools=[...])` with a tool
declared `requires_approval=True`, in a `ChatView` on NiceGUI's simulated page, over a scripted
`FunctionModel` (no real model). The approval group is the one an AG-UI agent gets; the person's
decision continues the run with `DeferredToolResults`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from chat_views import open_chat
from extras import NEEDS_LLM_EXTRA
from waiting import until

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

from nicegui import ui
from nicegui.testing import User
from pydantic_ai import Tool, models
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from chat_ui import ChatView, ChoicesPreparing, Interrupted, LLMAgent, LocalStore, Message
from chat_ui._nicegui._choice_group import ChoiceButton
from chat_ui._nicegui._interrupt_group import InterruptGroup
from chat_ui._nicegui._message import AssistantMessage

pytestmark = pytest.mark.nicegui_main_file("")

ASKED = 'Approve delete_branch({"name":"old"})?'


@pytest.fixture(autouse=True)
def no_model_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "ALLOW_MODEL_REQUESTS", False)


class Branches:
    """The agent's tools and its scripted model: it lists branches (no approval needed), then
    deletes `old` (approval needed); once it has the decision, it says what the tool returned."""

    def __init__(self) -> None:
        self.deleted: list[str] = []
        self.requests: list[list[ModelMessage]] = []
        tools = [Tool(self.list_branches), Tool(self.delete_branch, requires_approval=True)]
        self.agent = LLMAgent(FunctionModel(stream_function=self.stream), tools=tools)

    def list_branches(self) -> list[str]:
        """The git branches."""
        return ["main", "old"]

    def delete_branch(self, name: str) -> str:
        """Delete the git branch `name`."""
        self.deleted.append(name)
        return f"deleted branch {name}"

    async def stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        self.requests.append(messages)
        request = messages[-1]
        assert isinstance(request, ModelRequest)
        returned = [part for part in request.parts if isinstance(part, ToolReturnPart)]
        if not returned:
            yield "Let me look. "
            yield {0: DeltaToolCall("list_branches", "{}", tool_call_id="call_list")}
        elif returned[0].tool_name == "list_branches":
            yield "Found it. "
            yield {0: DeltaToolCall("delete_branch", '{"name": "old"}', tool_call_id="call_old")}
        else:
            yield " / ".join(str(part.content) for part in returned)


def group(view: ChatView) -> InterruptGroup:
    replies = [item for item in view.log if isinstance(item, AssistantMessage) and item.interrupts]
    return replies[-1].interrupts[0]


async def asked(user: User, branches: Branches) -> tuple[ChatView, list[Message]]:
    view, history = await open_chat(user, branches.agent)
    asyncio.get_running_loop().create_task(view.send("Delete the old branch"))
    await user.should_see(ASKED, retries=20)
    await until(lambda: not view.busy, "the reply has ended")
    return view, history


async def test_a_tool_that_needs_approval_ends_the_reply_with_an_interrupt() -> None:
    branches = Branches()
    history: list[Message] = [{"role": "user", "content": "Delete the old branch"}]
    chunks = [chunk async for chunk in branches.agent.reply(history)]
    assert ChoicesPreparing() not in chunks, "the agent's own calls are no choices"
    assert "".join(chunk for chunk in chunks if isinstance(chunk, str)) == (
        "Let me look. \n\nFound it. "
    )
    assert chunks[-1] == Interrupted(
        [
            {
                "id": "call_old",
                "message": ASKED,
                "reason": "tool_call",
                "tool_call": {
                    "id": "call_old",
                    "name": "delete_branch",
                    "arguments": {"name": "old"},
                },
                "response_schema": {
                    "type": "object",
                    "properties": {"approved": {"type": "boolean"}, "reason": {"type": "string"}},
                    "required": ["approved"],
                },
            }
        ]
    )
    assert branches.deleted == []


async def test_approve_runs_the_tool_and_a_reload_shows_the_decision(user: User) -> None:
    branches = Branches()
    view, history = await asked(user, branches)
    assert group(view).answer_view.approve.props["aria-pressed"] == "false"
    user.find(kind=ChoiceButton, content="Approve").click()
    await until(lambda: history[-1]["role"] == "assistant", "the reply went on")
    assert history[-1]["content"] == "deleted branch old"
    assert branches.deleted == ["old"]
    assert history[-2] == {
        "role": "answer",
        "content": "Approve",
        "resume": {"interrupt_id": "call_old", "status": "resolved", "payload": {"approved": True}},
    }

    @ui.page("/again")
    def again() -> None:
        ChatView(branches.agent, history)

    await user.open("/again")
    await user.should_see("deleted branch old")
    (approve,) = user.find(kind=ChoiceButton, content="Approve").elements
    assert approve.props["aria-pressed"] == "true"
    assert approve.props["aria-disabled"] == "true"


async def test_deny_does_not_run_the_tool_and_the_model_gets_the_reason(user: User) -> None:
    branches = Branches()
    view, _ = await asked(user, branches)
    reason = group(view).answer_view.reason
    assert reason is not None
    reason.value = "It holds the audit fixes"
    user.find(kind=ChoiceButton, content="Deny").click()
    await until(lambda: view.history[-1]["role"] == "assistant", "the reply went on")
    assert view.history[-1]["content"] == "It holds the audit fixes"
    assert branches.deleted == []
    *_, decision = branches.requests[-1]
    assert isinstance(decision, ModelRequest)
    (denied,) = decision.parts
    assert isinstance(denied, ToolReturnPart)
    assert (denied.tool_call_id, denied.content) == ("call_old", "It holds the audit fixes")


async def test_a_message_typed_instead_cancels_the_approval_and_reaches_the_model(
    user: User,
) -> None:
    branches = Branches()
    view, _ = await asked(user, branches)
    await view.send("Keep it, rename it instead")
    *_, decision = branches.requests[-1]
    assert isinstance(decision, ModelRequest)
    cancelled, typed = decision.parts
    assert isinstance(cancelled, ToolReturnPart)
    assert cancelled.content == "Cancelled by user."
    assert isinstance(typed, UserPromptPart)
    assert typed.content == "Keep it, rename it instead"
    assert branches.deleted == []
    approve = group(view).answer_view.approve
    assert (approve.props["aria-pressed"], approve.props["aria-disabled"]) == ("false", "true")


async def test_another_page_on_the_same_store_shows_the_same_decision(user: User) -> None:
    """As another instance on the same Redis would: the state is the conversation's."""
    branches = Branches()
    kept: list[Message] = []

    @ui.page("/kept")
    def page() -> None:
        ChatView(branches.agent, store=LocalStore(kept))

    await user.open("/kept")
    await user.should_see("Hello!")
    view = next(element for element in user.find(kind=ChatView).elements)
    assert isinstance(view, ChatView)
    await view.send("Delete the old branch")
    user.find(kind=ChoiceButton, content="Deny").click()
    finished: Message = {"role": "assistant", "content": "The tool call was denied."}
    await until(lambda: kept[-1] == finished, "the reply is kept, finished")

    await user.open("/kept")
    await user.should_see("The tool call was denied.", kind=ui.html)
    (deny,) = user.find(kind=ChoiceButton, content="Deny").elements
    assert (deny.props["aria-pressed"], deny.props["aria-disabled"]) == ("true", "true")
