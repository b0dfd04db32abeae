"""`ChatView`: sending, agent replies, derived block states, busy state, errors and cheap appends."""

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from nicegui import ui
from nicegui.testing import User
from waiting import until

from chat_ui import BlockState, ChatView, ChoiceGroup, ChoicesMarkdown, Message, ScriptAgent
from chat_ui._nicegui._message import AssistantMessage
from present_choices import ChoicePrompt, render_fence

pytestmark = pytest.mark.nicegui_main_file("")

COLOUR = render_fence(
    ChoicePrompt.model_validate(
        {
            "question": "Colour?",
            "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
        }
    )
)
SCRIPT = ScriptAgent([f"Hi!\n\n{COLOUR}", f"Got {{{{user}}}}.\n\n{COLOUR}", "Bye {{user}}."])


@pytest.fixture
async def user(user: User) -> AsyncIterator[User]:
    """NiceGUI's simulated user, with a moment at the end for the page to send its last updates.

    Without it, a test that ends while updates are being sent stalls its teardown for 2 seconds
    ("Could not cancel 6 tasks within timeout").
    """
    yield user
    await asyncio.sleep(0.05)


class GatedAgent:
    """Streams its reply in two parts and waits for the test between them; fails on request."""

    def __init__(self, first: str, second: str) -> None:
        self.first, self.second = first, second
        self.gate = asyncio.Event()
        self.seen: list[list[Message]] = []
        self.error: Exception | None = None

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        self.seen.append(list(history))
        yield self.first
        await self.gate.wait()
        self.gate.clear()
        if self.error is not None:
            raise self.error
        yield self.second


async def open_chat(user: User, agent: object, history: list[Message] | None = None) -> ChatView:
    views: list[ChatView] = []

    @ui.page("/")
    def page() -> None:
        views.append(ChatView(agent, history))  # type: ignore[arg-type]

    await user.open("/")
    return views[0]


def groups(view: ChatView) -> list[ChoiceGroup]:
    return [
        group
        for message in view.log
        if isinstance(message, AssistantMessage)
        for group in message.body.groups
    ]


def states(view: ChatView) -> list[BlockState]:
    return [group.state for group in groups(view)]


async def test_an_empty_conversation_starts_with_the_greeting(user: User) -> None:
    view = await open_chat(user, SCRIPT)
    await user.should_see("Hi!")
    await user.should_see("Colour?")
    assert view.history == [{"role": "assistant", "content": f"Hi!\n\n{COLOUR}"}]


async def test_clicking_an_option_sends_its_value_and_the_agent_replies(user: User) -> None:
    view = await open_chat(user, SCRIPT)
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("Got red.")
    assert [m["role"] for m in view.history] == ["assistant", "user", "assistant"]
    assert view.history[1]["content"] == "red"
    assert states(view) == [BlockState("answered", "red"), BlockState("pending")]


async def test_a_typed_message_makes_the_open_block_outdated(user: User) -> None:
    view = await open_chat(user, SCRIPT)
    await user.should_see("Colour?")
    user.find(ui.textarea).type("green, actually")
    user.find("Send").click()
    await user.should_see("Got green, actually.")
    assert states(view) == [BlockState("outdated"), BlockState("pending")]
    assert view.composer.input.value == ""


async def test_an_earlier_block_keeps_its_pick_after_later_messages(user: User) -> None:
    view = await open_chat(user, SCRIPT)
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("Got red.")
    await view.send("something else")
    await user.should_see("Bye something else.")
    assert states(view) == [BlockState("answered", "red"), BlockState("outdated")]


async def test_a_replayed_history_shows_the_same_states_as_the_live_chat(user: User) -> None:
    live = await open_chat(user, SCRIPT)
    await user.should_see("Red")
    user.find("Blue").click()
    await user.should_see("Got blue.")
    await live.send("typed")
    replayed = await open_chat(user, SCRIPT, list(live.history))
    assert states(replayed) == states(live)
    assert states(live) == [BlockState("answered", "blue"), BlockState("outdated")]


async def test_while_the_agent_replies_it_shows_thinking_and_send_is_disabled(user: User) -> None:
    agent = GatedAgent(f"Hold on\n\n{COLOUR[:30]}", COLOUR[30:])
    view = await open_chat(user, agent)
    await user.should_see("Thinking…")
    await user.should_see("preparing choices...")
    assert not view.composer.button.enabled
    user.find(ui.textarea).type("hello?")
    user.find("Send").click()
    assert len(view.history) == 0
    agent.gate.set()
    await user.should_not_see("Thinking…")
    await user.should_see("Red")
    assert view.composer.button.enabled
    assert view.composer.input.value == "hello?"


async def test_a_failing_agent_shows_an_error_and_the_chat_goes_on(user: User) -> None:
    agent = GatedAgent("Half a rep", "ly")
    agent.error = RuntimeError("model overloaded")
    view = await open_chat(user, agent)
    agent.gate.set()
    await user.should_see("The agent could not reply (RuntimeError: model overloaded)")
    await user.should_not_see("Half a rep")
    assert view.composer.button.enabled
    agent.error = None
    asyncio.get_running_loop().call_later(0.05, agent.gate.set)
    await view.send("try again")
    await user.should_see("Half a reply")
    assert agent.seen[-1] == [{"role": "user", "content": "try again"}]
    assert [m["role"] for m in view.history] == ["error", "user", "assistant"]


async def test_a_double_click_sends_one_message(user: User) -> None:
    view = await open_chat(user, SCRIPT)
    await user.should_see("Red")
    user.find("Red").click()
    user.find("Red").click()
    await user.should_see("Got red.")
    assert [m["content"] for m in view.history if m["role"] == "user"] == ["red"]


async def test_appending_touches_only_new_elements_and_the_blocks_it_decides(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    history: list[Message] = []
    for turn in range(5):
        history += [
            {"role": "assistant", "content": f"Question {turn}\n\n{COLOUR}"},
            {"role": "user", "content": "red"},
        ]
    history.append({"role": "assistant", "content": f"Last\n\n{COLOUR}"})
    view = await open_chat(user, ScriptAgent(["unused"] * 7), history)
    earlier = list(view.log)
    open_block = groups(view)[-1]
    allowed = {open_block.id, *(button.id for button in open_block.buttons)}
    forbidden = {element.id for message in earlier for element in message.descendants()} - allowed
    updated: list[int] = []
    outbox = user.client.outbox  # type: ignore[union-attr]
    original = outbox.enqueue_update
    monkeypatch.setattr(
        outbox, "enqueue_update", lambda element: (updated.append(element.id), original(element))
    )
    await view.send("blue")
    assert list(view.log)[: len(earlier)] == earlier
    assert open_block.state == BlockState("answered", "blue")
    assert set(updated) & allowed
    assert not set(updated) & forbidden


class ChunkedAgent:
    """Replies with `chunks` as fast as it can, then holds its last chunk back until `gate` opens."""

    def __init__(self, chunks: list[str], last: str = "") -> None:
        self.chunks, self.last = chunks, last
        self.gate = asyncio.Event()

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        for chunk in self.chunks:
            yield chunk
            await asyncio.sleep(0)
        await self.gate.wait()
        yield self.last


async def test_a_reply_in_a_thousand_chunks_is_rendered_a_few_times_not_a_thousand(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[str] = []
    original = ChoicesMarkdown.set_content

    def counted(self: ChoicesMarkdown, content: str, **options: Any) -> None:
        renders.append(content)
        original(self, content, **options)

    monkeypatch.setattr(ChoicesMarkdown, "set_content", counted)
    agent = ChunkedAgent([f"word{index} " for index in range(1000)], last="end.")
    view = await open_chat(user, agent)
    await user.should_see("word0")
    agent.gate.set()
    await user.should_see("end.")
    assert view.history[0]["content"].endswith("word999 end.")
    assert len(renders) <= 10, f"{len(renders)} renders for 1,001 chunks"


async def test_the_last_chunk_before_a_pause_is_shown_during_the_pause(user: User) -> None:
    agent = ChunkedAgent(["Let me ", "think", " about it."])
    await open_chat(user, agent)
    await user.should_see("Let me think about it.")  # while the agent still waits
    agent.gate.set()


class UnheardHistory(list[Message]):
    """A history that keeps what the agent says and loses what the person says."""

    def append(self, message: Message) -> None:
        if message["role"] != "user":
            super().append(message)


async def test_regression_a_click_shows_its_answer_only_through_the_history(user: User) -> None:
    """A click used to set its block's state four times (in the browser, `ChoiceGroup`,
    `ChoicesMarkdown` and `ChatView`): a pick the history never got still looked answered."""
    history = UnheardHistory()
    view = await open_chat(user, SCRIPT, history)
    await user.should_see("Red")
    user.find("Red").click()
    await until(lambda: len(history) == 2, "the agent replied")  # to a history without the pick
    assert [m["role"] for m in history] == ["assistant", "assistant"]
    assert states(view) == [BlockState("pending"), BlockState("pending")]

    kept = await open_chat(user, SCRIPT, [])
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("Got red.")
    assert kept.history[1] == {"role": "user", "content": "red"}
    assert states(kept) == [BlockState("answered", "red"), BlockState("pending")]
