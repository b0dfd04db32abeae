"""`SaveQueue`: writes reach the store in the order they were made, a failed one is tried again until
the store takes it (nothing after it overtakes it), and a streaming reply's updates fold into one."""

import asyncio

import pytest
from waiting import until

from chat_ui import LocalStore, Message
from chat_ui._model._conversation import cut_off
from chat_ui._stores._save_queue import SaveQueue


class FlakyStore(LocalStore):
    """Fails the next `failures` writes; records every write it took."""

    def __init__(self) -> None:
        super().__init__([])
        self.failures = 0
        self.taken: list[str] = []

    def _take(self, what: str) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("connection refused")
        self.taken.append(what)

    async def append(self, message: Message) -> None:
        self._take(f"append {message['content']}")
        await super().append(message)

    async def replace(self, old: Message, new: Message) -> bool:
        self._take(f"replace {old['content']} by {new['content']}")
        return await super().replace(old, new)

    async def clear(self) -> None:
        self._take("clear")
        await super().clear()


def said(text: str) -> Message:
    return {"role": "assistant", "content": text}


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chat_ui._stores._save_queue.FIRST_RETRY", 0.01)


async def test_a_failed_write_is_retried_and_nothing_overtakes_it() -> None:
    store = FlakyStore()
    states: list[bool] = []
    queue = SaveQueue(store, states.append)
    store.failures = 3
    first = queue.append(said("one"))
    queue.append(said("two"))
    await asyncio.wait_for(first.wait(), 5)
    await until(lambda: not queue.pending(), "every write is saved")
    assert store.taken == ["append one", "append two"]
    assert store.messages == [said("one"), said("two")]
    assert states == [True, False], "not saved, then saved"


async def test_updates_of_a_waiting_draft_fold_into_one_write() -> None:
    store = FlakyStore()
    queue = SaveQueue(store, lambda unsaved: None)
    store.failures = 1  # holds the first write at the head while the others queue behind it
    queue.append(said("question"))
    queue.append(said("dr"))
    queue.replace(said("dr"), said("draft"))
    queue.replace(said("draft"), said("draft, finished"))
    queue.append(said("next"))
    queue.replace(said("next"), said("next, finished"))
    await until(lambda: not queue.pending(), "every write is saved")
    assert store.taken == ["append question", "append draft, finished", "append next, finished"]


async def test_a_write_under_way_is_not_changed_but_followed_by_a_replace() -> None:
    store = FlakyStore()
    queue = SaveQueue(store, lambda unsaved: None)
    queue.append(said("draft"))
    await asyncio.sleep(0)  # the append is under way
    queue.replace(said("draft"), said("draft, finished"))
    await until(lambda: not queue.pending(), "every write is saved")
    assert store.taken == ["append draft", "replace draft by draft, finished"]
    assert store.messages == [said("draft, finished")]


async def test_a_replace_after_a_clear_overwrites_nothing() -> None:
    store = FlakyStore()
    queue = SaveQueue(store, lambda unsaved: None)
    queue.append(said("draft"))
    queue.clear()
    queue.append(said("new conversation"))
    queue.replace(said("draft"), said("draft, finished"))
    await until(lambda: not queue.pending(), "every write is saved")
    assert store.messages == [said("new conversation")]


async def test_regression_a_reply_ending_after_its_draft_was_taken_for_cut_off_is_kept() -> None:
    draft: Message = {"role": "assistant", "content": "Postgre", "streaming": "r1", "saved_at": 1.0}
    store = FlakyStore()
    store.messages[:] = [{"role": "user", "content": "Which?"}, cut_off(draft)]
    queue = SaveQueue(store, lambda unsaved: None)
    queue.replace(draft, said("PostgreSQL it is."))
    await until(lambda: not queue.pending(), "the ending is saved")
    assert store.messages[-1] == said("PostgreSQL it is."), "the finished reply wins, not lost"
    assert len(store.messages) == 2
