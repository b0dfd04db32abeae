"""What recording the history costs a question: from the tool call to its page answering HTTP 200.

Three `provide-choice serve --no-browser` processes, spawned over stdio by the SDK's client, each
with a data directory of its own:

- history on: the default settings (the question is inserted when asked, its address added when
  shown, its answer written when it ends);
- history off: `keep_history: false` (the question is still inserted while it waits, for the inbox,
  and deleted when it ends);
- not recorded: the history file cannot be opened (one warning at start-up; nothing is written).

Each question: call `provide_choice`, take the page's address from the first progress
notification, GET it: HTTP 200 (the time measured), then post the answer and wait for the
result, so every question's end is written too and later questions share the disk with it. The
sides take turns question by question in the same run, so the ratios cancel out the machine's
speed. Target: on/off at most 1.05 (and on/not recorded, the whole cost, reported beside it).
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from attended import attended_environment

PROCESSES = 3
QUESTIONS = 40
TARGET_RATIO = 1.05

QUESTION = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


@dataclass
class Side:
    """One server set-up and the seconds its questions took to be served."""

    name: str
    home: Path
    samples: list[float] = field(default_factory=list)

    def parameters(self, command: str) -> StdioServerParameters:
        # The server's stderr (a line per question) goes nowhere: the report stays readable.
        return StdioServerParameters(
            command="/bin/sh",
            args=["-c", 'exec "$0" serve --no-browser 2>/dev/null', command],
            env=attended_environment(self.home),
        )


async def ask_once(client: Client, http: httpx.AsyncClient) -> float:
    """Seconds from the tool call to the page answering 200; then the question is answered."""
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+): ", message or "")
        if found and not address.done():
            address.set_result(found.group(1))

    started = time.perf_counter()
    call = asyncio.create_task(
        client.call_tool("provide_choice", QUESTION, progress_callback=on_progress)
    )
    url = await asyncio.wait_for(address, 30)
    page = await http.get(url)  # the address is reported once the page is there
    assert page.status_code == 200, page.status_code
    served = time.perf_counter() - started
    answer = await http.post(url + "/answer", json={"kind": "answered", "selected_ids": ["pg"]})
    assert answer.status_code == 200, answer.text
    result = await asyncio.wait_for(call, 30)
    assert not result.is_error, result.content
    return served


async def measure(sides: list[Side], command: str) -> None:
    """A fresh process of each side; the first question of each (the bridge starting) is left out."""
    async with (
        Client(sides[0].parameters(command)) as first,
        Client(sides[1].parameters(command)) as second,
        Client(sides[2].parameters(command)) as third,
        httpx.AsyncClient() as http,
    ):
        clients = [first, second, third]
        for round_number in range(QUESTIONS + 1):
            shift = round_number % len(sides)  # who goes first rotates
            for index in [*range(shift, len(sides)), *range(shift)]:
                seconds = await ask_once(clients[index], http)
                if round_number:
                    sides[index].samples.append(seconds)


def recorded(home: Path) -> int:
    with sqlite3.connect(home / "history.sqlite3") as connection:
        count: int = connection.execute("SELECT count(*) FROM questions").fetchone()[0]
    return count


def milliseconds(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:6.1f} ms"


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as directory:
        on, off, unrecorded = (
            Side(name, Path(directory) / name) for name in ("on", "off", "unrecorded")
        )
        for side in (on, off, unrecorded):
            side.home.mkdir()
        (off.home / "settings.json").write_text(json.dumps({"keep_history": False}))
        (unrecorded.home / "history.sqlite3").mkdir()  # a directory: the file cannot be opened
        for _ in range(PROCESSES):
            await measure([on, off, unrecorded], command)
        # Each side did what it claims: every question kept, none kept, no file at all.
        asked = PROCESSES * (QUESTIONS + 1)
        assert (recorded(on.home), recorded(off.home)) == (asked, 0)
    for side, label in (
        (on, "history on   "),
        (off, "history off  "),
        (unrecorded, "not recorded "),
    ):
        print(f"{label}: tool call to page HTTP 200 {milliseconds(side.samples)}")
    ratio = statistics.median(on.samples) / statistics.median(off.samples)
    whole = statistics.median(on.samples) / statistics.median(unrecorded.samples)
    print(
        f"medians of {PROCESSES * QUESTIONS} questions per side; on/off ratio {ratio:.3f} "
        f"(target at most {TARGET_RATIO}); on/not recorded {whole:.3f}"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
