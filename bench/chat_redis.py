"""What keeping conversations in Redis costs: one more message in a long conversation, and a message's
way from Send to the page.

1. Appending: `RedisStore` appends one message to a conversation of 10,000 messages and to one of
   10, against a redis-server of the benchmark's own (a free port, a temporary directory, the
   append-only file on, as in production). Each append is one `RPUSH` (in a script that keeps the
   write's id among the conversation's latest 64 too: a write tried again is not made twice); if the
   conversation were rewritten on each message, as NiceGUI's own Redis storage does with a user's
   dictionary, the long one would cost about 1,000 times the short one. Target: at most 1.5. For
   reference (no target), the same for replacing a streaming reply's draft at the end, which is
   found from the tail.
2. Send to shown: a real `choices-chat --agent script` with `--redis` and one without (the local
   store), each in a real Chromium page; in the page, from the Enter key that sends a message to the
   message appearing in the conversation (with Redis, the message is shown once Redis has it: the
   round trip to Redis is part of what is measured). Target: Redis at most 1.2 times local.

Not measured: Redis on another machine (add the network's round trip to each save).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import Page, async_playwright, expect

SUPPORT = Path(__file__).resolve().parent.parent / "e2e" / "support"
sys.path.insert(0, str(SUPPORT))
from chat_harness import chat_process  # noqa: E402
from chromium import launch_chromium  # noqa: E402
from redis_server import NEEDS_REDIS_SERVER, RedisServer, redis_server_path  # noqa: E402

from chat_ui import Message, RedisStore  # noqa: E402

SHORT, LONG = 10, 10_000
APPENDS = 1_000
SENDS = 30
APPEND_TARGET = 1.5
SEND_TARGET = 1.2
SECRET = "the-benchmark-s-own-secret-for-its-instances"
MESSAGE: Message = {
    "role": "assistant",
    "content": "Here is what I found, with **emphasis**, `code` and a list:\n\n- one\n- two\n",
}

SEND_AND_WAIT_UNTIL_SHOWN = """(text) => new Promise((resolve) => {
  const log = document.querySelector('[role="log"]');
  const shown = () => [...log.querySelectorAll(".chat-message--user")].some(
    (message) => message.innerText.includes(text));
  const observer = new MutationObserver(() => {
    if (shown()) { observer.disconnect(); resolve(performance.now() - start); }
  });
  observer.observe(log, { childList: true, subtree: true, characterData: true });
  const box = document.querySelector('textarea[aria-label="Message"]');
  const start = performance.now();
  box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
})"""


async def append_costs(url: str) -> dict[str, tuple[float, float]]:
    """Median seconds of an append and of a draft's replacement, for the short and long one."""
    store = RedisStore(url)
    short, long = store.conversation("short"), store.conversation("long")
    await store.client.delete(short.key, long.key)
    encoded = json.dumps(MESSAGE)
    await store.client.rpush(short.key, *[encoded] * SHORT)
    for _ in range(LONG // 1_000):
        await store.client.rpush(long.key, *[encoded] * 1_000)
    timings: dict[str, list[float]] = {"append short": [], "append long": []}
    timings |= {"replace short": [], "replace long": []}
    for index in range(APPENDS):  # alternating keeps a busy machine from favouring one size
        for name, conversation in (("short", short), ("long", long)):
            draft: Message = {**MESSAGE, "streaming": f"reply-{index}"}
            start = time.perf_counter()
            await conversation.append(draft)
            timings[f"append {name}"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await conversation.replace(draft, MESSAGE)
            timings[f"replace {name}"].append(time.perf_counter() - start)
    await store.close()
    median = {name: statistics.median(values) for name, values in timings.items()}
    return {
        kind: (median[f"{kind} short"], median[f"{kind} long"]) for kind in ("append", "replace")
    }


async def send_to_shown(page: Page, text: str) -> float:
    """Milliseconds from Enter to `text` shown as the person's message; then waits for the reply."""
    await page.get_by_role("textbox", name="Message").fill(text)
    await page.wait_for_timeout(50)  # the typed text has reached the server
    elapsed: float = await page.evaluate(SEND_AND_WAIT_UNTIL_SHOWN, text)
    await expect(page.get_by_role("button", name="Send")).to_be_enabled()
    return elapsed


async def send_costs(local_url: str, redis_url: str) -> tuple[float, float]:
    async with async_playwright() as playwright:
        browser = await launch_chromium(playwright)
        pages = {}
        for name, url in (("local", local_url), ("redis", redis_url)):
            pages[name] = await (await browser.new_context()).new_page()
            await pages[name].goto(url)
            await expect(pages[name].get_by_role("log")).to_contain_text("Hello")
        timings: dict[str, list[float]] = {"local": [], "redis": []}
        for index in range(SENDS):
            for name, page in pages.items():
                timings[name].append(await send_to_shown(page, f"Message number {index}"))
        await browser.close()
    return statistics.median(timings["local"]), statistics.median(timings["redis"])


def main() -> None:
    executable = redis_server_path()
    if executable is None:
        raise SystemExit(f"chat redis: {NEEDS_REDIS_SERVER}")
    with tempfile.TemporaryDirectory() as workdir:
        root = Path(workdir)
        script = root / "script.json"
        script.write_text(json.dumps(["Hello!"] + ["Noted."] * (SENDS + 5)), encoding="utf-8")
        agent = ["--agent", "script", "--script", str(script)]
        with RedisServer(root / "redis", executable) as redis_server:
            appends = asyncio.run(append_costs(redis_server.url))
            (root / "local").mkdir()
            (root / "redis-chat").mkdir()
            environment = {"CHOICES_CHAT_STORAGE_SECRET": SECRET}
            with (
                chat_process(agent, root / "local") as local,
                chat_process(
                    [*agent, "--redis", redis_server.url], root / "redis-chat", environment
                ) as shared,
            ):
                local_ms, redis_ms = asyncio.run(send_costs(local.url, shared.url))
    failures = []
    for kind, (short, long) in appends.items():
        ratio = long / short
        print(f"chat redis: {kind} with {SHORT:>6,} messages: {short * 1e6:7.0f} µs")
        print(f"chat redis: {kind} with {LONG:>6,} messages: {long * 1e6:7.0f} µs")
        if kind == "append":
            print(f"chat redis: {kind} ratio {ratio:.2f} (target <= {APPEND_TARGET})")
            if ratio > APPEND_TARGET:
                failures.append(f"append ratio {ratio:.2f} is above the target {APPEND_TARGET}")
        else:
            print(f"chat redis: {kind} ratio {ratio:.2f} (for reference, no target)")
    ratio = redis_ms / local_ms
    print(f"chat redis: Send to shown, local store: {local_ms:6.1f} ms (median of {SENDS})")
    print(f"chat redis: Send to shown, Redis store: {redis_ms:6.1f} ms (median of {SENDS})")
    print(f"chat redis: Send to shown ratio {ratio:.2f} (target <= {SEND_TARGET})")
    if ratio > SEND_TARGET:
        failures.append(f"Send to shown ratio {ratio:.2f} is above the target {SEND_TARGET}")
    if failures:
        raise SystemExit("chat redis: " + "; ".join(failures))


if __name__ == "__main__":
    main()
