"""How fast provide_choice starts, and what it holds while it waits: each ratio against a baseline
measured in the same run, the sides taking turns, medians of several runs each.

- `choice-terminal --help` and `provide-choice --help` against `python -c pass` (this environment's
  Python): at most 4 times as long. A command imports only what it needs, and printing its help
  needs nothing but the command line.
- `provide-choice serve`, spawned over stdio by the MCP SDK's client, from spawning the process to
  having its `tools/list` answer, against a bare `MCPServer` of the same SDK with one tool: at most
  1.05. Measured on its own, the two taking turns `LISTING_RUNS` times, each process ended once
  listed: a difference of a few percent drowns in what a run that asked questions leaves behind.
- Its memory (RSS), idle (a moment after `tools/list`) and while a question waits on its page
  (fetched once, as the browser does), against the bare server's, idle and while a call of its
  waits: at most 1.05 each.
- The first question on the page: from the tool call to the page answering HTTP 200, against the
  seed's origin server (Sighthesia/interactive-choice-mcp), below 1.0. Both are fresh processes
  that have answered `tools/list` and then waited a moment, as a server does while the agent's model
  writes its first call; both open their page with `$BROWSER`, here a script that hands the address
  to this benchmark, which fetches it at once. That server is not part of this project: it is
  found through `SEED_SERVER_PYTHON` (a Python with its dependencies, `mcp<2` and fastmcp) and
  `SEED_SERVER_DIR` (its checkout, holding `server.py`); without them this comparison is skipped,
  saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import httpx
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from attended import attended_environment

HELP_RUNS = 11
SERVER_RUNS = 7
LISTING_RUNS = 15
PAUSE_SECONDS = 2.0
"""Between `tools/list` and the first call: shorter than an agent's model takes to write one."""
SETTLE_SECONDS = 1.0
"""How long a question (or the bare server's call) waits before its server's memory is read."""
HELP_TARGET = 4.0
TOOLS_TARGET = 1.05
MEMORY_TARGET = 1.05
SEED_TARGET = 1.0
"""The seed's time is the ceiling: ours must be below it."""

BARE_SERVER = '''
import anyio
from mcp.server.mcpserver import MCPServer

server = MCPServer("bare")


@server.tool()
def echo(text: str) -> str:
    """Return the text."""
    return text


@server.tool()
async def wait() -> str:
    """Wait until cancelled, as a question waits for its person."""
    await anyio.sleep_forever()
    return ""


server.run()
'''

QUESTION: dict[str, object] = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "transport": "web",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}
SEED_QUESTION: dict[str, object] = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "options": [
        {"id": "PostgreSQL", "description": "pg", "recommended": True},
        {"id": "SQLite", "description": "lite"},
    ],
}
"""The same question in the seed's own shape (an option's id is its label)."""


@dataclass
class Samples:
    """One side's measurements, a list per quantity, each in seconds or megabytes."""

    name: str
    values: dict[str, list[float]] = field(default_factory=dict)

    def add(self, quantity: str, value: float) -> None:
        self.values.setdefault(quantity, []).append(value)

    def median(self, quantity: str) -> float:
        return statistics.median(self.values[quantity])


class Addresses:
    """The addresses the servers open in "the browser": `$BROWSER` is a script that writes each
    into a named pipe this benchmark reads."""

    def __init__(self, directory: Path) -> None:
        pipe = directory / "addresses"
        os.mkfifo(pipe)
        self.browser = directory / "browser"
        self.browser.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" > "{pipe}"\n')
        self.browser.chmod(0o755)
        self._reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
        self._writer = os.open(pipe, os.O_WRONLY)  # the pipe never ends between two writers
        self._lines: asyncio.Queue[str] = asyncio.Queue()
        self._pending = b""
        asyncio.get_running_loop().add_reader(self._reader, self._read)

    def _read(self) -> None:
        self._pending += os.read(self._reader, 65536)
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._lines.put_nowait(line.decode())

    async def next(self) -> str:
        return await asyncio.wait_for(self._lines.get(), 30)

    def close(self) -> None:
        asyncio.get_running_loop().remove_reader(self._reader)
        os.close(self._reader)
        os.close(self._writer)


def cached(environment: dict[str, str] | None = None) -> dict[str, str]:
    """`environment` (else this process's) with Python's compiled modules written and read, as an
    installation has them: a development shell may turn that off, and every process would then
    compile this package again (the bare server, started with the SDK's default environment, and
    its SDK, precompiled when installed, would not)."""
    kept = dict(os.environ if environment is None else environment)
    kept.pop("PYTHONDONTWRITEBYTECODE", None)
    return kept


def children() -> set[int]:
    """This process's child processes."""
    found: set[int] = set()
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found |= {int(pid) for pid in (task / "children").read_text().split()}
    return found


def megabytes(pid: int) -> float:
    """The resident memory of process `pid`."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"process {pid} has no VmRSS")


@contextlib.asynccontextmanager
async def started(
    server: StdioServerParameters, samples: Samples
) -> AsyncIterator[tuple[Client, int]]:
    """A fresh server process whose `tools/list` has been answered and has then waited
    `PAUSE_SECONDS`; with its process id."""
    before = children()
    async with Client(server) as client:
        tools = await client.list_tools()
        assert tools.tools, f"{samples.name} listed no tools"
        (pid,) = children() - before
        await asyncio.sleep(PAUSE_SECONDS)
        yield client, pid


async def first_page(
    client: Client, question: dict[str, object], addresses: Addresses, http: httpx.AsyncClient
) -> tuple[float, str, asyncio.Task[object]]:
    """Seconds from the tool call to its page answering HTTP 200; the page's address and the call."""
    began = time.perf_counter()
    call = asyncio.create_task(client.call_tool("provide_choice", question))
    url = await addresses.next()
    page = await served(http, url)
    assert page.status_code == 200, f"{url}: HTTP {page.status_code}"
    return time.perf_counter() - began, url, call


async def served(http: httpx.AsyncClient, url: str) -> httpx.Response:
    """The page at `url`, asked again while nothing listens there yet: the seed's server opens
    the browser a tenth of a second after starting its HTTP server, which on a busy machine may
    not be listening by then."""
    deadline = time.perf_counter() + 10
    while True:
        try:
            return await http.get(url)
        except httpx.ConnectError:
            if time.perf_counter() > deadline:
                raise
            await asyncio.sleep(0.005)


async def run_ours(
    server: StdioServerParameters, samples: Samples, addresses: Addresses, http: httpx.AsyncClient
) -> None:
    async with started(server, samples) as (client, pid):
        samples.add("idle", megabytes(pid))
        seconds, url, call = await first_page(client, QUESTION, addresses, http)
        samples.add("first page", seconds)
        await asyncio.sleep(SETTLE_SECONDS)
        samples.add("waiting", megabytes(pid))
        answer = await http.post(url + "/answer", json={"kind": "answered", "selected_ids": ["pg"]})
        assert answer.status_code == 200, answer.text
        await asyncio.wait_for(call, 30)


async def run_bare(server: StdioServerParameters, samples: Samples) -> None:
    async with started(server, samples) as (client, pid):
        samples.add("idle", megabytes(pid))
        call = asyncio.create_task(client.call_tool("wait", {}))
        await asyncio.sleep(SETTLE_SECONDS)
        samples.add("waiting", megabytes(pid))
        await cancelled(call)


async def run_seed(
    server: StdioServerParameters, samples: Samples, addresses: Addresses, http: httpx.AsyncClient
) -> None:
    async with started(server, samples) as (client, _pid):
        seconds, _url, call = await first_page(client, SEED_QUESTION, addresses, http)
        samples.add("first page", seconds)
        await cancelled(call)


async def cancelled(call: asyncio.Task[object]) -> None:
    """A call still waiting, cancelled, and let end before its server goes."""
    call.cancel()
    with contextlib.suppress(asyncio.CancelledError, MCPError):
        await call


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def seed_server(directory: Path, browser: Path) -> Callable[[], StdioServerParameters] | None:
    """How to start the seed's server, each time on a free port with a data directory of its own;
    None when the environment does not say where it is."""
    python, checkout = os.environ.get("SEED_SERVER_PYTHON"), os.environ.get("SEED_SERVER_DIR")
    if not python or not checkout:
        return None

    def parameters() -> StdioServerParameters:
        data = Path(tempfile.mkdtemp(dir=directory))
        environment = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(data),
            "BROWSER": str(browser),
            "CHOICE_WEB_PORT": str(free_port()),
            "CHOICE_MCP_DATA_DIR": str(data),
        }
        # Its log lines go nowhere: the report stays readable.
        return StdioServerParameters(
            command="/bin/sh",
            args=["-c", 'exec "$0" server.py 2>/dev/null', python],
            cwd=checkout,
            env=environment,
        )

    return parameters


def help_times(bin_directory: Path) -> dict[str, list[float]]:
    """Each command's run times, the commands taking turns (the first round, warming the file
    cache and writing the compiled modules, left out)."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "choice-terminal --help": [str(bin_directory / "choice-terminal"), "--help"],
        "provide-choice --help": [str(bin_directory / "provide-choice"), "--help"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for round_number in range(HELP_RUNS + 1):
        for name, command in commands.items():
            began = time.perf_counter()
            subprocess.run(command, stdout=subprocess.DEVNULL, check=True, env=cached())
            if round_number:
                times[name].append(time.perf_counter() - began)
    return times


class Report:
    """Each ratio printed against its target; the ones missed, for the exit status."""

    def __init__(self) -> None:
        self.missed: list[str] = []

    def ratio(
        self,
        title: str,
        ours: float,
        theirs: float,
        target: float,
        *,
        unit: str = "ms",
        below: bool = False,
    ) -> None:
        """`below`: the target is a ceiling ours stays under (else: at most)."""
        ratio = ours / theirs
        met = ratio < target if below else ratio <= target
        if unit == "MB":
            shown = f"{ours:.1f} MB against {theirs:.1f} MB"
        else:
            shown = f"{ours * 1000:.0f} ms against {theirs * 1000:.0f} ms"
        bound = "below" if below else "at most"
        print(f"{title}: {shown}, ratio {ratio:.2f} (target {bound} {target})")
        if not met:
            self.missed.append(f"{title} ({ratio:.2f})")


async def listing_times(
    ours: StdioServerParameters, bare: StdioServerParameters
) -> tuple[Samples, Samples]:
    """Spawn to `tools/list` answered, for each side `LISTING_RUNS` times, taking turns (the first
    turn, warming the file cache, left out); each process ends once it has listed its tools."""
    sides = (Samples("ours"), Samples("bare"))
    for turn in range(LISTING_RUNS + 1):
        for parameters, side in zip((ours, bare), sides, strict=True):
            began = time.perf_counter()
            async with Client(parameters) as client:
                await client.list_tools()
                if turn:
                    side.add("tools", time.perf_counter() - began)
    return sides


async def servers(command: str, report: Report) -> None:
    """`provide-choice serve`, the bare server and the seed's, a fresh process each per round,
    who goes first rotating; the first round (warming the file cache, writing the compiled
    modules) left out."""
    ours, bare, seed = Samples("ours"), Samples("bare"), Samples("seed")
    with tempfile.TemporaryDirectory() as workdir:
        directory = Path(workdir)
        addresses = Addresses(directory)
        bare_script = directory / "bare_server.py"
        bare_script.write_text(BARE_SERVER)
        home = directory / "home"
        home.mkdir()
        our_server = StdioServerParameters(
            command="/bin/sh",
            # Its line per question goes nowhere: the report stays readable.
            args=["-c", 'exec "$0" serve 2>/dev/null', command],
            env=cached(attended_environment(home, BROWSER=str(addresses.browser))),
        )
        bare_server = StdioServerParameters(command=sys.executable, args=[str(bare_script)])
        listed_ours, listed_bare = await listing_times(our_server, bare_server)
        seed_parameters = seed_server(directory, addresses.browser)
        async with httpx.AsyncClient() as http:
            for round_number in range(SERVER_RUNS + 1):
                kept = round_number > 0
                sides = [side if kept else Samples(side.name) for side in (ours, bare, seed)]
                runs: list[Callable[[], Awaitable[None]]] = [
                    partial(run_ours, our_server, sides[0], addresses, http),
                    partial(run_bare, bare_server, sides[1]),
                ]
                if seed_parameters is not None:
                    runs.append(partial(run_seed, seed_parameters(), sides[2], addresses, http))
                shift = round_number % len(runs)
                for run in runs[shift:] + runs[:shift]:
                    await run()
        addresses.close()
    report.ratio(
        "serve: spawn to tools/list, against a bare MCPServer",
        listed_ours.median("tools"),
        listed_bare.median("tools"),
        TOOLS_TARGET,
    )
    for quantity, title in (("idle", "idle"), ("waiting", "while a question waits")):
        report.ratio(
            f"serve: memory {title}, against a bare MCPServer",
            ours.median(quantity),
            bare.median(quantity),
            MEMORY_TARGET,
            unit="MB",
        )
    if seed_parameters is None:
        print(
            "first question on the page: skipped (set SEED_SERVER_PYTHON and SEED_SERVER_DIR to "
            "compare with the seed's server)"
        )
        return
    report.ratio(
        "first question: tool call to its page HTTP 200, against the seed's server",
        ours.median("first page"),
        seed.median("first page"),
        SEED_TARGET,
        below=True,
    )


def main() -> int:
    bin_directory = Path(sys.executable).parent
    command = shutil.which("provide-choice", path=str(bin_directory))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    report = Report()
    times = help_times(bin_directory)
    baseline = statistics.median(times.pop("python -c pass"))
    for name, samples in times.items():
        report.ratio(
            f"{name}, against python -c pass", statistics.median(samples), baseline, HELP_TARGET
        )
    asyncio.run(servers(command, report))
    print(
        f"medians of {HELP_RUNS} runs per command, {LISTING_RUNS} listings and {SERVER_RUNS} "
        "fresh processes per server"
    )
    if report.missed:
        print(f"missed: {'; '.join(report.missed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
