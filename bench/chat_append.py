"""How long one more turn takes in a long conversation compared with a short one.

What is measured, in this one process, without a browser: `ChatView.send()` on a conversation of 10
and of 1,000 messages (a choices block in every 5th message), with an agent that answers at once.
One send is a whole turn: the user's message is appended and answers the open choices block, then
the agent's reply, markdown plus a new choices block, is rendered and appended. Timed together with
it is building and serializing the update that NiceGUI would send to the browser for that turn (the
`_to_dict()` of every element queued in the page's outbox, as JSON).

Not measured: the network and the browser's own re-render. The ratio is the point: if a send
rebuilt earlier messages, the 1,000-message turn would cost about 100 times the 10-message one; the
target is at most 1.5 times.
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import time
from collections.abc import AsyncIterator, Sequence

from nicegui import Client
from nicegui.outbox import Deleted
from nicegui.page import page

from chat_ui import ChatView, Message
from present_choices import ChoicePrompt, render_fence

TURNS = 100
TARGET_RATIO = 1.5
BLOCK = render_fence(
    ChoicePrompt.model_validate(
        {
            "question": "Which one?",
            "context": "Pick the option that fits best.",
            "options": [
                {"label": "The first", "value": "first"},
                {"label": "The second", "value": "second"},
                {"label": "The third", "value": "third"},
            ],
        }
    )
)
REPLY = f"Noted. Here is **what I found**:\n\n- one point\n- another point\n\n{BLOCK}"


class InstantAgent:
    """Replies at once, always with a choices block, so every turn answers one and opens one."""

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        yield REPLY


def conversation(size: int) -> list[Message]:
    """`size` messages; every 5th one is the agent's with a block, answered by the next one."""
    history: list[Message] = []
    for index in range(size):
        if index % 5 == 4 or index == size - 1:
            history.append({"role": "assistant", "content": REPLY})
        elif index % 5 == 0 and index:
            history.append({"role": "user", "content": "second"})
        elif index % 2:
            history.append({"role": "user", "content": f"Message {index}: tell me more."})
        else:
            history.append({"role": "assistant", "content": f"Reply {index}: `code`, *emphasis*."})
    return history


class ChatPage:
    """A page holding a `ChatView` over `size` messages, on a client that never connects: its
    outbox only collects updates, which `turn` serializes exactly as the outbox would."""

    def __init__(self, size: int) -> None:
        self.client = Client(page("/"), request=None)
        with self.client:
            self.view = ChatView(InstantAgent(), conversation(size))
        self.client.outbox.updates.clear()

    async def turn(self, text: str) -> float:
        """Seconds for one send plus the update it makes the page send."""
        updates = self.client.outbox.updates
        start = time.perf_counter()
        with self.client:
            await self.view.send(text)
        payload = {
            key: None if isinstance(element, Deleted) else element._to_dict()
            for key, element in updates.items()
        }
        json.dumps(payload)
        elapsed = time.perf_counter() - start
        updates.clear()
        return elapsed


async def main() -> None:
    small, large = ChatPage(10), ChatPage(1000)
    timings: dict[ChatPage, list[float]] = {small: [], large: []}
    gc.collect()
    gc.disable()
    try:
        # Alternating keeps a busy machine from favouring one size over the other.
        for turn in range(TURNS):
            for chat in (small, large):
                timings[chat].append(await chat.turn("first" if turn % 2 else "second"))
    finally:
        gc.enable()
    assert len(large.view.history) == 1000 + 2 * TURNS
    small_time, large_time = (statistics.median(timings[chat]) for chat in (small, large))
    ratio = large_time / small_time
    print(f"chat append: one more turn with    10 messages: {small_time * 1000:7.2f} ms")
    print(f"chat append: one more turn with 1,000 messages: {large_time * 1000:7.2f} ms")
    print(f"chat append: ratio {ratio:.2f} (target <= {TARGET_RATIO})")
    if ratio > TARGET_RATIO:
        raise SystemExit(f"chat append: ratio {ratio:.2f} is above the target {TARGET_RATIO}")


if __name__ == "__main__":
    asyncio.run(main())
