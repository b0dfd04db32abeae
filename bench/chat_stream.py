"""What a streamed reply costs the server when it comes in 5,000 chunks instead of 50.

What is measured, in this one process, without a browser: the CPU time of a `ChatView` receiving the
same 20 KB reply (headings, lists, code blocks, and a choices block at the end), cut into 50 or into
5,000 chunks, together with serializing the updates NiceGUI would send to the browser (its outbox
sends as soon as something changed; here it is emptied every 10 ms). In both cases the agent hands
its chunks over in 50 bursts 20 ms apart, as a network delivers several server-sent events per read,
so each stream lasts about a second.

If the chat re-rendered the message per chunk, 5,000 chunks would cost about 100 times what 50 do;
the target is at most 2 times. Not measured: the network and the browser. For reference only (no
target; it is the model library's own cost, not the chat's), the last line gives what pydantic-ai
spends handling the same two streams of events for `LLMAgent`.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator, Sequence

from nicegui import Client
from nicegui.outbox import Deleted
from nicegui.page import page
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel

from chat_ui import ChatView, LLMAgent, Message
from present_choices import ChoicePrompt, render_fence

SMALL, LARGE = 50, 5_000
BURSTS = 50
BURST_GAP = 0.02  # seconds
OUTBOX_GAP = 0.01  # seconds between two looks at the outbox
RUNS = 5
TARGET_RATIO = 2.0


def reply_text(size: int = 20_000) -> str:
    """About `size` characters of the markdown a model writes, ending with a choices block."""
    section = (
        "## Step {n}\n\nHere is what to do, with **emphasis** and `inline code` in a sentence that "
        "runs on for a while, as explanations do.\n\n- first point of step {n}\n- second point\n\n"
        "```python\nresult = compute({n})\nprint(result)\n```\n\n"
    )
    text, number = "", 1
    while len(text) < size:
        text += section.format(n=number)
        number += 1
    prompt = {
        "question": "Shall I go on?",
        "options": [{"label": "Yes", "value": "yes"}, {"label": "No", "value": "no"}],
    }
    return text + render_fence(ChoicePrompt.model_validate(prompt))


def chunked(text: str, count: int) -> list[str]:
    size = -(-len(text) // count)
    return [text[start : start + size] for start in range(0, len(text), size)]


class BurstAgent:
    """Yields its chunks in `BURSTS` bursts `BURST_GAP` seconds apart."""

    def __init__(self, chunks: list[str]) -> None:
        self.chunks = chunks

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        per_burst = len(self.chunks) // BURSTS
        for index, chunk in enumerate(self.chunks):
            yield chunk
            if (index + 1) % per_burst == 0:
                await asyncio.sleep(BURST_GAP)


async def chat_cost(chunks: list[str]) -> float:
    """CPU seconds for one streamed reply in a chat page whose updates are serialized as sent."""
    client = Client(page("/"), request=None)
    with client:
        view = ChatView(BurstAgent(chunks), [{"role": "assistant", "content": "Hello!"}])
    updates = client.outbox.updates
    updates.clear()
    sending = True

    async def outbox() -> None:
        while sending:
            payload = {
                key: None if isinstance(element, Deleted) else element._to_dict()
                for key, element in updates.items()
            }
            json.dumps(payload)
            updates.clear()
            await asyncio.sleep(OUTBOX_GAP)

    outbox_task = asyncio.create_task(outbox())
    start = time.process_time()
    with client:
        await view.send("Tell me everything.")
    sending = False
    await outbox_task
    elapsed = time.process_time() - start
    assert view.history[-1]["content"] == "".join(chunks), "the whole reply was kept"
    return elapsed


async def library_cost(chunks: list[str]) -> float:
    """CPU seconds pydantic-ai spends on the same chunks as events of a model's stream."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        for chunk in chunks:
            yield chunk

    agent = LLMAgent(FunctionModel(stream_function=stream))
    start = time.process_time()
    async for _ in agent.reply([{"role": "user", "content": "Tell me everything."}]):
        pass
    return time.process_time() - start


async def main() -> None:
    text = reply_text()
    cases = {SMALL: chunked(text, SMALL), LARGE: chunked(text, LARGE)}
    timings: dict[int, list[float]] = {SMALL: [], LARGE: []}
    for _ in range(RUNS):  # alternating keeps a busy machine from favouring one case
        for count, chunks in cases.items():
            timings[count].append(await chat_cost(chunks))
    small, large = (statistics.median(timings[count]) for count in (SMALL, LARGE))
    ratio = large / small
    print(
        f"chat stream: {len(text):,} characters in {SMALL:>5,} chunks: {small * 1000:7.1f} ms CPU"
    )
    print(
        f"chat stream: {len(text):,} characters in {LARGE:>5,} chunks: {large * 1000:7.1f} ms CPU"
    )
    print(f"chat stream: ratio {ratio:.2f} (target <= {TARGET_RATIO})")
    library = [await library_cost(cases[count]) for count in (SMALL, LARGE)]
    print(
        "for reference, pydantic-ai's own handling of the same events (no target): "
        f"{library[0] * 1000:.1f} ms for {SMALL:,} chunks, {library[1] * 1000:.1f} ms for {LARGE:,}"
    )
    if ratio > TARGET_RATIO:
        raise SystemExit(f"chat stream: ratio {ratio:.2f} is above the target {TARGET_RATIO}")


if __name__ == "__main__":
    asyncio.run(main())
