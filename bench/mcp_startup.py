"""How fast `provide-choice serve` answers its first `tools/list`, against a bare MCP server.

Both servers are spawned the same way (a Python process on stdio, driven by the MCP SDK's stdio
client), alternately, in the same run, so the ratio cancels out the machine's speed. The time runs
from spawning the process to having the `tools/list` answer. Target: ratio at most 1.2.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from attended import attended_environment

RUNS = 7
TARGET_RATIO = 1.2

BARE_SERVER = '''
from mcp.server.mcpserver import MCPServer

server = MCPServer("bare")


@server.tool()
def echo(text: str) -> str:
    """Return the text."""
    return text


server.run()
'''


async def time_to_tools(server: StdioServerParameters) -> float:
    started = time.perf_counter()
    async with Client(server) as client:
        tools = await client.list_tools()
    elapsed = time.perf_counter() - started
    assert tools.tools, "the server listed no tools"
    return elapsed


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as directory:
        bare_script = Path(directory) / "bare_server.py"
        bare_script.write_text(BARE_SERVER)
        # A home of its own: the server's settings and history stay out of the person's.
        home = attended_environment(directory)
        ours = StdioServerParameters(command=command, args=["serve"], env=home)
        bare = StdioServerParameters(command=sys.executable, args=[str(bare_script)])
        await time_to_tools(ours)  # warm the file cache for both before measuring
        await time_to_tools(bare)
        our_times, bare_times = [], []
        for _ in range(RUNS):
            our_times.append(await time_to_tools(ours))
            bare_times.append(await time_to_tools(bare))
    ours_median, bare_median = statistics.median(our_times), statistics.median(bare_times)
    ratio = ours_median / bare_median
    print(f"provide-choice serve: median {ours_median * 1000:.0f} ms to tools/list ({RUNS} runs)")
    print(f"bare MCPServer:       median {bare_median * 1000:.0f} ms to tools/list ({RUNS} runs)")
    print(f"ratio: {ratio:.2f} (target at most {TARGET_RATIO})")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(anyio.run(main))
