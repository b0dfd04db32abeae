"""`ChatView` over a `ConversationStore`: read at open, written one message at a time, and never
saved over when the store is away (unavailable at load, not saved yet mid-chat), with replies cut
off by a stopped app kept as such."""

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from itertools import pairwise

import pytest
from nicegui import ui
from nicegui.testing import User
from waiting import until

from chat_ui import BlockState, ChatView, LocalStore, Message, ScriptAgent
from chat_ui._nicegui._message import CUT_OFF_NOTE, AssistantMessage
from chat_ui._session._loading import WATCH_INTERVAL
from chat_ui._session._notices import ELSEWHERE, UNAVAILABLE, UNSAVED
from present_choices import ChoicePrompt, render_fence

WATCHED_RETRIES = round(4 * WATCH_INTERVAL / 0.1)
"""`should_see` tries every 0.1 s: a change saved elsewhere shows at the next read of the store
(every WATCH_INTERVAL), later on a busy machine; a few intervals, not three tries."""

pytestmark = pytest.mark.nicegui_main_file("")

COLOUR = render_fence(
    ChoicePrompt.model_validate(
        {
            "question": "Colour?",
            "options": [{"label": "Red", "value": "red"}, {"label": "Blue", "value": "blue"}],
        }
    )
)
SCRIPT = ScriptAgent([f"Hi!\n\n{COLOUR}", "Got {{user}}.", "Bye {{user}}."])


class AwayStore(LocalStore):
    """A store in a list that can be away: then every call fails, as a Redis that is down does."""

    def __init__(self, messages: list[Message] | None = None) -> None:
        super().__init__([] if messages is None else messages)
        self.away = False
        self.writes = 0

    def _check(self) -> None:
        if self.away:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    async def load(self) -> list[Message]:
        self._check()
        return await super().load()

    async def append(self, message: Message) -> None:
        self._check()
        self.writes += 1
        await super().append(message)

    async def replace(self, old: Message, new: Message) -> bool:
        self._check()
        self.writes += 1
        return await super().replace(old, new)

    async def clear(self) -> None:
        self._check()
        await super().clear()


@pytest.fixture
async def user(user: User) -> AsyncIterator[User]:
    yield user
    await asyncio.sleep(0.05)


async def open_chat(user: User, agent: object, store: AwayStore) -> ChatView:
    views: list[ChatView] = []

    @ui.page("/")
    def page() -> None:
        views.append(ChatView(agent, store=store))  # type: ignore[arg-type]

    await user.open("/")
    return views[-1]


def states(view: ChatView) -> list[BlockState]:
    return [
        group.state
        for message in view.log
        if isinstance(message, AssistantMessage)
        for group in message.body.groups
    ]


async def test_the_conversation_is_read_from_the_store_and_each_message_written_once(
    user: User,
) -> None:
    store = AwayStore()
    view = await open_chat(user, SCRIPT, store)
    await user.should_see("Red")
    user.find("Red").click()
    await user.should_see("Got red.")
    await until(lambda: len(store.messages) == 3, "the reply is saved")
    assert [m["content"] for m in store.messages] == [f"Hi!\n\n{COLOUR}", "red", "Got red."]
    reopened = await open_chat(user, SCRIPT, store)
    await user.should_see("Got red.")
    assert list(reopened.history) == list(view.history) == store.messages
    assert states(reopened) == [BlockState("answered", "red")]


async def test_with_both_a_history_and_a_store_the_view_says_which_to_give() -> None:
    with pytest.raises(ValueError, match="not both"):
        ChatView(SCRIPT, [], store=AwayStore())


async def test_an_unreadable_store_makes_the_chat_unavailable_never_empty(user: User) -> None:
    kept: list[Message] = [{"role": "assistant", "content": "Kept earlier."}]
    store = AwayStore(kept)
    store.away = True
    view = await open_chat(user, SCRIPT, store)
    await user.should_see(UNAVAILABLE)
    assert view.notice.props["role"] == "alert"
    assert not view.composer.input.enabled
    assert not view.composer.button.enabled
    await view.send("this would start a new conversation")
    assert store.writes == 0
    assert list(view.history) == []
    store.away = False  # the store is back: the conversation shows, as it was kept
    await user.should_see("Kept earlier.", retries=50)
    await user.should_not_see(UNAVAILABLE)
    assert view.composer.button.enabled
    assert store.messages == [{"role": "assistant", "content": "Kept earlier."}]


async def test_a_message_sent_while_the_store_is_away_waits_in_the_box_and_is_saved_after(
    user: User,
) -> None:
    store = AwayStore()
    view = await open_chat(user, SCRIPT, store)
    await user.should_see("Red")
    await until(lambda: len(store.messages) == 1, "the greeting is saved")
    store.away = True
    user.find(ui.textarea).type("green")
    user.find("Send").click()
    await user.should_see(UNSAVED)
    assert view.composer.input.value == "green", "the message is still in the box"
    assert [m["role"] for m in view.history] == ["assistant"], "not shown before it is saved"
    store.away = False
    await user.should_see("Got green.", retries=50)
    await user.should_not_see(UNSAVED)
    assert view.composer.input.value == ""
    await until(lambda: len(store.messages) == 3, "the reply is saved")
    assert [m["content"] for m in store.messages] == [f"Hi!\n\n{COLOUR}", "green", "Got green."]


async def test_a_reply_cut_off_by_a_stopped_app_is_kept_and_shown_as_cut_off(user: User) -> None:
    draft: Message = {"role": "assistant", "content": "Half of the ans", "streaming": "gone"}
    store = AwayStore([{"role": "user", "content": "Tell me"}, draft])
    view = await open_chat(user, ScriptAgent(["Hello!", "(unused)", "Here it is, whole."]), store)
    await user.should_see(CUT_OFF_NOTE)
    await user.should_see("Half of the ans")
    cut = {"role": "assistant", "content": "Half of the ans", "cut_off": True}
    await until(lambda: store.messages[-1] == cut, "the draft is kept as cut off")
    assert view.history[-1] == cut
    await view.send("Tell me again")
    await user.should_see("Here it is, whole.")


class GatedAgent:
    """Says `first`, then waits for the test before `second`."""

    def __init__(self, first: str, second: str) -> None:
        self.first, self.second = first, second
        self.gate = asyncio.Event()

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        if not any(message["role"] == "user" for message in history):
            yield "Hello!"
            return
        yield self.first
        await self.gate.wait()
        yield self.second


async def reply_under_way(
    user: User, agent: GatedAgent, store: AwayStore
) -> tuple[ChatView, asyncio.Task[None]]:
    """A chat whose reply to "a question" has said its first part, saved as a draft, and waits."""
    view = await open_chat(user, agent, store)
    await user.should_see("Hello!")
    task = asyncio.get_running_loop().create_task(view.send("a question"))
    await until(lambda: len(store.messages) == 3, "the draft is saved while the reply streams")
    return view, task


async def test_a_streaming_reply_is_saved_as_it_goes_and_replaced_by_the_finished_one(
    user: User,
) -> None:
    store = AwayStore()
    agent = GatedAgent("Thinking about ", "your question.")
    _, task = await reply_under_way(user, agent, store)
    draft = store.messages[-1]
    assert draft["content"] == "Thinking about "
    assert "streaming" in draft
    agent.gate.set()
    await task
    await until(lambda: "streaming" not in store.messages[-1], "the finished reply replaces it")
    assert store.messages[-1] == {"role": "assistant", "content": "Thinking about your question."}
    assert len(store.messages) == 3


async def test_a_reply_still_streaming_in_another_tab_is_shown_and_waited_for(user: User) -> None:
    store = AwayStore()
    agent = GatedAgent("Thinking about ", "your question.")
    _, task = await reply_under_way(user, agent, store)
    other_tab = await open_chat(user, agent, store)
    await user.should_see(ELSEWHERE)
    await user.should_see("Thinking about")
    assert not other_tab.loaded, "no message goes out without the reply under way"
    assert other_tab.notice.props["role"] == "status", "a wait, not a failure"
    assert "cut_off" not in other_tab.history[-1]
    assert "streaming" in store.messages[-1], "the draft is left for its reply to finish"
    agent.gate.set()
    await task
    await until(lambda: other_tab.loaded, "the other tab goes on once the reply is done")
    await user.should_see("Thinking about your question.")
    await user.should_not_see(ELSEWHERE)
    assert other_tab.history[-1] == {
        "role": "assistant",
        "content": "Thinking about your question.",
    }
    assert store.messages == other_tab.history


def draft_from_another_instance(saved_at: float) -> Message:
    return {
        "role": "assistant",
        "content": "PostgreSQL",
        "streaming": "a reply of another instance",
        "saved_at": saved_at,
    }


async def test_regression_a_reply_finishing_on_another_instance_is_not_taken_for_cut_off(
    user: User,
) -> None:
    draft = draft_from_another_instance(time.time())
    store = AwayStore([{"role": "user", "content": "Which database?"}, draft])
    view = await open_chat(user, SCRIPT, store)
    await user.should_see(ELSEWHERE)
    await user.should_see("PostgreSQL")
    await asyncio.sleep(2 * WATCH_INTERVAL)
    assert store.messages[-1] == draft, "a draft saved lately is left to its reply"
    shown = list(view.log.default_slot.children)
    kept_fresh = draft | {"saved_at": time.time()}
    assert await store.replace(draft, kept_fresh)  # saved again, the same text
    await asyncio.sleep(2 * WATCH_INTERVAL)
    assert list(view.log.default_slot.children) == shown, "not drawn again for the same text"
    grown = kept_fresh | {"content": "PostgreSQL it"}
    assert await store.replace(kept_fresh, grown)
    await user.should_see("PostgreSQL it", retries=WATCHED_RETRIES)
    finished: Message = {"role": "assistant", "content": "PostgreSQL it is."}
    assert await store.replace(grown, finished)  # the other instance ends its reply
    await until(lambda: view.loaded, "the chat goes on once the reply is done")
    await user.should_see("PostgreSQL it is.")
    await user.should_not_see(CUT_OFF_NOTE)
    assert view.history == store.messages
    assert store.messages[-1] == finished


async def test_a_draft_no_instance_saves_any_more_is_cut_off_once_stale(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chat_ui._session._streaming_reply.DRAFT_STALE", 1.0)
    draft = draft_from_another_instance(time.time() - 0.5)  # its instance died half a second ago
    store = AwayStore([{"role": "user", "content": "Which database?"}, draft])
    view = await open_chat(user, SCRIPT, store)
    await user.should_see(ELSEWHERE)
    await until(lambda: view.loaded, "the chat goes on once no save came for a while")
    await user.should_see(CUT_OFF_NOTE)
    await user.should_not_see(ELSEWHERE)
    await until(lambda: store.messages[-1].get("cut_off", False), "the draft is kept as cut off")
    assert store.messages[-1] == {"role": "assistant", "content": "PostgreSQL", "cut_off": True}


async def test_a_silent_reply_keeps_its_draft_fresh(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("chat_ui._session._streaming_reply.DRAFT_KEPT_FRESH", 0.1)
    store = AwayStore()
    agent = GatedAgent("Running the tool… ", "done.")
    _, task = await reply_under_way(user, agent, store)
    first = store.messages[-1]["saved_at"]
    await until(lambda: store.messages[-1]["saved_at"] > first + 0.15, "saved again, no text")
    assert store.messages[-1]["content"] == "Running the tool… "
    agent.gate.set()
    await task
    await until(lambda: "streaming" not in store.messages[-1], "the finished reply replaces it")
    saved = store.messages[:]
    await asyncio.sleep(0.3)
    assert store.messages == saved, "nothing is saved after the reply ended"


async def test_a_stopped_reply_keeps_what_it_had_saved_as_cut_off(user: User) -> None:
    store = AwayStore()
    agent = GatedAgent("Thinking about ", "your question.")
    view, _ = await reply_under_way(user, agent, store)
    view.stop()
    await user.should_not_see("Thinking about")
    cut = {"role": "assistant", "content": "Thinking about ", "cut_off": True}
    await until(lambda: store.messages[-1] == cut, "the draft is kept as cut off")


class SteadyAgent:
    """Greets, then says a word every 100 ms for a second and a half."""

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        if not any(message["role"] == "user" for message in history):
            yield "Hello!"
            return
        for word in range(15):
            await asyncio.sleep(0.1)
            yield f"{word} "


async def test_a_reply_that_streams_is_not_saved_again_beside_its_own_saves(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every word is saved as it comes: a save beside those would repeat the text saved last.
    monkeypatch.setattr("chat_ui._session._streaming_reply.DRAFT_SAVE_INTERVAL", 0.02)
    monkeypatch.setattr("chat_ui._session._streaming_reply.DRAFT_KEPT_FRESH", 0.3)
    store = AwayStore()
    drafts: list[str] = []
    replace = store.replace

    async def recording(old: Message, new: Message) -> bool:
        if "streaming" in new:
            drafts.append(new["content"])
        return await replace(old, new)

    store.replace = recording  # type: ignore[method-assign]
    view = await open_chat(user, SteadyAgent(), store)
    await user.should_see("Hello!")
    await view.send("count")
    assert len(drafts) >= 5, drafts
    assert all(a != b for a, b in pairwise(drafts)), f"saved twice as it was: {drafts}"
