"""Several instances on one Redis, under load: is every answer delivered to its own call, and what
does the way through Redis cost?

1. Two `provide-choice serve --http --redis` instances on a redis-server of the benchmark's own (a
   free port, a temporary directory, the append-only file on, as in production). 200 questions are
   asked at once, half through each instance (the MCP SDK's own client, one per instance); each is
   answered through the other instance's page routes, with an answer that only fits it (its own
   option ids). Target: 0 lost (every call returns an answer) and 0 crossed (every call returns its
   own question's answer).
2. Answer to reply: from the POST that answers to the waiting call's result, through Redis (the
   answer on one instance, the call on the other) against one instance without Redis (the answer
   and the call on it), each the median of 200 questions asked at once and answered one after
   another (each page opened first, as a person does), the two sides asked together and answered
   in turns, so that the ratio cancels out what else the machine does. Target: ratio at most 1.5.

Not measured: Redis on another machine (add the network's round trip to each write).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

SUPPORT = Path(__file__).resolve().parent.parent / "e2e" / "support"
sys.path.insert(0, str(SUPPORT))
from mcp_servers import PAGE_ADDRESS, TOKEN  # noqa: E402
from redis_server import NEEDS_REDIS_SERVER, RedisServer, redis_server_path  # noqa: E402
from remote_instances import Instance, instance  # noqa: E402

QUESTIONS = 200
TARGET_RATIO = 1.5
ASKED_SECONDS = 60.0
"""How long asking every question (each call's page address) may take."""


def question(number: int) -> dict[str, Any]:
    """A question whose answer fits it alone: its option ids carry its number."""
    return {
        "title": f"Question {number}",
        "prompt": f"Which way for question {number}?",
        "selection_mode": "single",
        "options": [
            {"id": f"q{number}-yes", "label": "Yes", "recommended": True},
            {"id": f"q{number}-no", "label": "No"},
        ],
        "timeout_seconds": 600,
        "transport": "web",
    }


class Asked:
    """One question asked through a client: the call that waits, and its page's address."""

    def __init__(self, number: int, client: Client) -> None:
        self.number = number
        self.address: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.call = asyncio.ensure_future(
            client.call_tool("provide_choice", question(number), progress_callback=self._heard)
        )

    async def _heard(self, _progress: float, _total: float | None, message: str | None) -> None:
        found = PAGE_ADDRESS.search(message or "")
        if found and not self.address.done():
            self.address.set_result(found.group(1))


async def client_of(stack: AsyncExitStack, server: Instance) -> Client:
    """The MCP SDK's client of `server`, with room for every question's call at once."""
    http = await stack.enter_async_context(
        httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {TOKEN}"},
            timeout=httpx2.Timeout(30, read=900),
            limits=httpx2.Limits(max_connections=None, max_keepalive_connections=None),
        )
    )
    transport = streamable_http_client(server.url, http_client=http)
    return await stack.enter_async_context(Client(transport))


class Round:
    """Every question asked at once (the n-th through `asking[n % len]`), to be answered each
    through `answering[n % len]`."""

    def __init__(self, asking: list[Client], answering: list[Instance]) -> None:
        self.asked = [Asked(number, asking[number % len(asking)]) for number in range(QUESTIONS)]
        self.answering = answering
        self.times: list[float] = []
        self.lost = self.crossed = 0

    async def shown(self) -> None:
        pages = asyncio.gather(*(one.address for one in self.asked))
        await asyncio.wait_for(pages, ASKED_SECONDS)

    async def answer(self, number: int, person: httpx.AsyncClient) -> None:
        """Open the page of question `number` (as a person does), then answer it and time the
        way to its call's result."""
        one = self.asked[number]
        page = self.answering[number % len(self.answering)].page(one.address.result())
        assert (await person.get(page)).status_code == 200
        started = time.perf_counter()
        chosen = [f"q{number}-no"]
        sent = await person.post(
            page + "/answer", json={"kind": "answered", "selected_ids": chosen}
        )
        assert sent.status_code == 200, sent.text
        try:
            result = await asyncio.wait_for(one.call, 30)
        except Exception:  # the call failed, or never returned: its answer is lost
            self.lost += 1
            return
        self.times.append(time.perf_counter() - started)
        if (result.structured_content or {}).get("selection", {}).get("selected_ids") != chosen:
            self.crossed += 1


async def measured(root: Path, redis: RedisServer) -> tuple[Round, Round]:
    """Both rounds asked at once, then answered in turns, question by question, so that whatever
    else the machine does weighs on both alike."""
    with (
        instance(redis, root / "a", "--max-wait", "600") as a,
        instance(redis, root / "b", "--max-wait", "600") as b,
        instance(None, root / "alone", "--max-wait", "600") as alone,
    ):
        async with AsyncExitStack() as stack:
            clients = [await client_of(stack, server) for server in (a, b, alone)]
            shared = Round(clients[:2], [b, a])  # each answered through the other instance
            local = Round(clients[2:], [alone])
            await asyncio.gather(shared.shown(), local.shown())
            async with httpx.AsyncClient(timeout=30) as person:
                for number in range(QUESTIONS):
                    await shared.answer(number, person)
                    await local.answer(number, person)
    return shared, local


def main() -> None:
    executable = redis_server_path()
    if executable is None:
        raise SystemExit(f"remote: {NEEDS_REDIS_SERVER}")
    with tempfile.TemporaryDirectory() as workdir:
        root = Path(workdir)
        with RedisServer(root / "redis", executable) as redis:
            shared, local = asyncio.run(measured(root, redis))
    shared_ms = statistics.median(shared.times) * 1000
    local_ms = statistics.median(local.times) * 1000
    ratio = shared_ms / local_ms
    print(
        f"remote: {QUESTIONS} questions asked at once on two instances: {shared.lost} lost, "
        f"{shared.crossed} crossed"
    )
    print(f"remote: answer to reply, one instance in memory: {local_ms:6.1f} ms (median)")
    print(f"remote: answer to reply, through Redis:          {shared_ms:6.1f} ms (median)")
    print(f"remote: ratio {ratio:.2f} (target <= {TARGET_RATIO})")
    failures = []
    if shared.lost or shared.crossed or local.lost or local.crossed:
        failures.append(f"{shared.lost} lost and {shared.crossed} crossed, where none may be")
    if ratio > TARGET_RATIO:
        failures.append(f"answer-to-reply ratio {ratio:.2f} is above the target {TARGET_RATIO}")
    if failures:
        raise SystemExit("remote: " + "; ".join(failures))


if __name__ == "__main__":
    main()
