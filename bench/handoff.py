"""How fast a terminal hand-off returns `pending_terminal_launch`, and what a pending session costs.

One `provide-choice serve` over stdio, driven by the MCP SDK's stdio client, measures in the same run:
- a trivial tool call (`present_choices`, validation plus a string) as the baseline;
- the hand-off reply with the bridge cold: the very first one (which also imports Starlette and
  uvicorn), and restarts after the bridge stopped for lack of pending sessions;
- the hand-off reply with the bridge warm (already serving another pending session);
- the server's memory growth (RSS) per pending session, with 200 pending.
Targets: warm ratio at most 2, under 50 KB per pending session.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from attended import attended_environment

WARM_RUNS = 30
COLD_RESTARTS = 3
PENDING = 200
TARGET_WARM_RATIO = 2.0
TARGET_BYTES_PER_SESSION = 50_000
BRIDGE_LINGER_SECONDS = 2.0

QUESTION = {
    "title": "Deploy",
    "prompt": "Which service should I deploy first?",
    "selection_mode": "single",
    "options": [
        {"id": "api", "label": "API", "recommended": True},
        {"id": "web", "label": "Web"},
    ],
    "transport": "terminal",
}
TRIVIAL = {"question": "Go on?", "options": ["Yes", "No"]}


async def timed(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = await client.call_tool(tool, arguments)
    elapsed = time.perf_counter() - started
    assert not result.is_error, result.content
    return elapsed, result.structured_content


async def handoff(client: Client) -> tuple[float, dict[str, Any]]:
    elapsed, content = await timed(client, "provide_choice", QUESTION)
    assert content["action_status"] == "pending_terminal_launch", content
    selection: dict[str, Any] = content["selection"]
    return elapsed, selection


async def end_session(selection: dict[str, Any]) -> None:
    """Cancel the session as a `choice-terminal` would, so the bridge may stop."""
    async with httpx.AsyncClient() as http:
        await http.post(selection["url"] + "/attach", json={})
        await http.post(selection["url"] + "/result", json={"kind": "cancelled"})


def server_pid(command: str) -> int:
    """The `provide-choice serve` process this benchmark spawned (a child of this process)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and any(command.encode() in part for part in arguments):
            return int(entry.name)
    raise RuntimeError("the server process was not found")


def resident_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as home:
        server = StdioServerParameters(
            command=command, args=["serve"], env=attended_environment(home)
        )
        async with Client(server) as client:
            pid = server_pid(command)
            await timed(client, "present_choices", TRIVIAL)  # the first call of any kind
            first_cold, selection = await handoff(client)
            await end_session(selection)
            cold = []
            for _ in range(COLD_RESTARTS):
                await anyio.sleep(BRIDGE_LINGER_SECONDS + 0.5)
                elapsed, selection = await handoff(client)
                cold.append(elapsed)
                await end_session(selection)
            _, keeping_warm = await handoff(client)
            trivial, warm = [], []
            for _ in range(WARM_RUNS):
                trivial.append((await timed(client, "present_choices", TRIVIAL))[0])
                warm.append((await handoff(client))[0])
            before = resident_bytes(pid)
            for _ in range(PENDING):
                await handoff(client)
            after = resident_bytes(pid)
            del keeping_warm
    trivial_median = statistics.median(trivial)
    warm_median, cold_median = statistics.median(warm), statistics.median(cold)
    warm_ratio = warm_median / trivial_median
    per_session = (after - before) / PENDING

    def line(name: str, seconds: float, note: str = "") -> None:
        ratio = seconds / trivial_median
        print(f"{name:<34} {seconds * 1000:7.1f} ms  ratio {ratio:5.2f}{note}")

    line("trivial tool call (median)", trivial_median, f"  ({WARM_RUNS} runs)")
    line("hand-off, bridge warm (median)", warm_median, f"  ({WARM_RUNS} runs)")
    line("hand-off, bridge cold (median)", cold_median, f"  ({COLD_RESTARTS} restarts)")
    line("hand-off, first ever (imports)", first_cold)
    print(f"warm ratio: {warm_ratio:.2f} (target at most {TARGET_WARM_RATIO})")
    print(
        f"memory: {per_session / 1024:.1f} KB per pending session "
        f"(RSS {before / 2**20:.1f} -> {after / 2**20:.1f} MB with {PENDING} more pending; "
        f"target under {TARGET_BYTES_PER_SESSION / 1000:.0f} KB)"
    )
    return 0 if warm_ratio <= TARGET_WARM_RATIO and per_session < TARGET_BYTES_PER_SESSION else 1


if __name__ == "__main__":
    sys.exit(anyio.run(main))
