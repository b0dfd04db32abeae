"""What answering in Telegram costs against answering on the page: from the person's press (a
button in Telegram, Submit on the page over HTTP) to the tool call's result, through one
`provide-choice serve --no-browser`, spawned over stdio by the SDK's client.

Telegram is a stand-in Bot API on 127.0.0.1 (tests/support/telegram_api.py), in a thread of this
process: the bot long-polls it, so a press reaches the bot as soon as it is queued, and this
measures that long polling adds no seconds. Each round asks once in Telegram (`transport:
"telegram"`; the press is queued once its message is there) and once on the page (`transport:
"web"`; the page is loaded, then the answer posted), the person looking at the question for a
moment first on both sides, in turns that swap every round so that the
ratio cancels out the machine's speed; the first round (the bridge starting, the first poll) is
left out. The person's `telegram` alert channel is off, so the page's questions are not also sent
to Telegram. Target: Telegram/page at most 1.5.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from telegram_api import StandInBotApi, stand_in_bot_api, telegram_environment

QUESTIONS = 30
TARGET_RATIO = 1.5
READING_SECONDS = 0.1
"""How long the person looks at the question before answering, on both sides: the press comes
once the question is in front of them, as a person's does, not while it is still being sent."""
QUESTION: dict[str, Any] = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


def parameters(command: str, home: Path, api: StandInBotApi) -> StdioServerParameters:
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("CI", "PROVIDE_CHOICE_NOTIFY", "DBUS_SESSION_BUS_ADDRESS")
    }
    return StdioServerParameters(
        command="/bin/sh",
        args=["-c", 'exec "$0" serve --no-browser 2>/dev/null', command],
        env=environment | {"AGENT_CHOICES_HOME": str(home)} | telegram_environment(api),
    )


async def in_telegram(client: Client, api: StandInBotApi) -> float:
    """Seconds from the press of a button in Telegram to the call's result."""
    sent = len(api.bot_messages())
    call = asyncio.create_task(
        client.call_tool("provide_choice", QUESTION | {"transport": "telegram"})
    )
    await api.until(lambda: len(api.bot_messages()) > sent, "sent the question", 30)
    card = api.bot_messages()[-1]
    await asyncio.sleep(READING_SECONDS)
    started = time.perf_counter()
    api.person().presses(card, "SQLite")
    result = await asyncio.wait_for(call, 30)
    elapsed = time.perf_counter() - started
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert result.structured_content["selection"]["transport"] == "telegram"
    return elapsed


async def on_the_page(client: Client, http: httpx.AsyncClient) -> float:
    """Seconds from Submit on the page (its answer posted over HTTP) to the call's result."""
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+): ", message or "")
        if found and not address.done():
            address.set_result(found.group(1))

    call = asyncio.create_task(
        client.call_tool(
            "provide_choice", QUESTION | {"transport": "web"}, progress_callback=on_progress
        )
    )
    url = await asyncio.wait_for(address, 30)
    assert (await http.get(url)).status_code == 200
    await asyncio.sleep(READING_SECONDS)
    started = time.perf_counter()
    answer = await http.post(url + "/answer", json={"kind": "answered", "selected_ids": ["lite"]})
    assert answer.status_code == 200, answer.text
    result = await asyncio.wait_for(call, 30)
    elapsed = time.perf_counter() - started
    assert not result.is_error, result.content
    return elapsed


def milliseconds(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:6.1f} ms"


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    telegram: list[float] = []
    page: list[float] = []
    with tempfile.TemporaryDirectory() as directory, stand_in_bot_api() as api:
        home = Path(directory)
        (home / "settings.json").write_text(json.dumps({"alerts": {"telegram": False}}))
        async with Client(parameters(command, home, api)) as client, httpx.AsyncClient() as http:
            for round_number in range(QUESTIONS + 1):
                sides = [in_telegram(client, api), on_the_page(client, http)]
                first, second = sides if round_number % 2 else sides[::-1]
                times = [await first, await second]
                if not round_number % 2:
                    times.reverse()
                if round_number:
                    telegram.append(times[0])
                    page.append(times[1])
    print(f"Telegram: press to the call's result  {milliseconds(telegram)}")
    print(f"the page: Submit to the call's result {milliseconds(page)}")
    ratio = statistics.median(telegram) / statistics.median(page)
    print(
        f"medians of {QUESTIONS} questions per side; Telegram/page ratio {ratio:.3f} "
        f"(target at most {TARGET_RATIO})"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
