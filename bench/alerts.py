"""What push alerts cost a question: from the tool call to its page answering HTTP 200, with push
on (every question sends its alert through apprise to a JSON webhook on 127.0.0.1) against push off.

Two `provide-choice serve --no-browser` processes, spawned over stdio by the SDK's client, each
with a data directory of its own; the webhook runs in this process, in a thread. Each question:
call `provide_choice`, take the page's address from the first progress notification, GET it (the
time measured), wait until the webhook has the alert (push on), then answer and wait for the
result. The sides take turns question by question, so the ratio cancels out the machine's speed.
Target: on/off at most 1.1.
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
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
from mcp import Client, StdioServerParameters

PROCESSES = 2
QUESTIONS = 30
TARGET_RATIO = 1.1

QUESTION = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


class Webhook:
    """Counts what apprise posts to it."""

    def __init__(self) -> None:
        self.count = 0
        self.arrived = threading.Event()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                hook.count += 1
                hook.arrived.set()
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.address = f"json://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@dataclass
class Side:
    name: str
    home: Path
    hook: Webhook | None = None
    samples: list[float] = field(default_factory=list)

    def parameters(self, command: str) -> StdioServerParameters:
        environment = {
            name: value
            for name, value in os.environ.items()
            if name not in ("CI", "PROVIDE_CHOICE_NOTIFY", "DBUS_SESSION_BUS_ADDRESS")
        }
        return StdioServerParameters(
            command="/bin/sh",
            args=["-c", 'exec "$0" serve --no-browser 2>/dev/null', command],
            env=environment | {"AGENT_CHOICES_HOME": str(self.home)},
        )


async def ask_once(client: Client, http: httpx.AsyncClient, hook: Webhook | None) -> float:
    """Seconds from the tool call to the page answering 200; then the alert arrives, and the
    question is answered."""
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+): ", message or "")
        if found and not address.done():
            address.set_result(found.group(1))

    if hook is not None:
        hook.arrived.clear()
    started = time.perf_counter()
    call = asyncio.create_task(
        client.call_tool("provide_choice", QUESTION, progress_callback=on_progress)
    )
    url = await asyncio.wait_for(address, 30)
    page = await http.get(url)
    assert page.status_code == 200, page.status_code
    served = time.perf_counter() - started
    if hook is not None:  # each alert lands in its own turn, not in the next question's
        assert await asyncio.to_thread(hook.arrived.wait, 15), "the alert did not arrive"
    answer = await http.post(url + "/answer", json={"kind": "answered", "selected_ids": ["pg"]})
    assert answer.status_code == 200, answer.text
    result = await asyncio.wait_for(call, 30)
    assert not result.is_error, result.content
    return served


async def measure(sides: list[Side], command: str) -> None:
    """A fresh process of each side; the first question of each (the bridge starting, apprise
    loading) is left out."""
    async with (
        Client(sides[0].parameters(command)) as first,
        Client(sides[1].parameters(command)) as second,
        httpx.AsyncClient() as http,
    ):
        clients = [first, second]
        for round_number in range(QUESTIONS + 1):
            shift = round_number % len(sides)
            for index in [*range(shift, len(sides)), *range(shift)]:
                seconds = await ask_once(clients[index], http, sides[index].hook)
                if round_number:
                    sides[index].samples.append(seconds)


def milliseconds(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:6.1f} ms"


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    try:
        import apprise  # noqa: F401  (the push side needs the extra)
    except ImportError:
        print("needs the push extra: pip install -e '.[push]'", file=sys.stderr)
        return 1
    hook = Webhook()
    with tempfile.TemporaryDirectory() as directory:
        on, off = Side("on", Path(directory) / "on", hook), Side("off", Path(directory) / "off")
        for side in (on, off):
            side.home.mkdir()
        (on.home / "settings.json").write_text(json.dumps({"notify_urls": [hook.address]}))
        (off.home / "settings.json").write_text(json.dumps({"alerts": {"push": False}}))
        for _ in range(PROCESSES):
            await measure([on, off], command)
    assert hook.count == PROCESSES * (QUESTIONS + 1), "every question of the push side alerted"
    print(f"push on : tool call to page HTTP 200 {milliseconds(on.samples)}")
    print(f"push off: tool call to page HTTP 200 {milliseconds(off.samples)}")
    ratio = statistics.median(on.samples) / statistics.median(off.samples)
    print(
        f"medians of {PROCESSES * QUESTIONS} questions per side; on/off ratio {ratio:.3f} "
        f"(target at most {TARGET_RATIO})"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
