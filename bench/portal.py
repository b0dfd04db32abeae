"""How soon a question asked in the browser is usable, against a minimal Starlette page.

Both sides are MCP servers spawned over stdio by the SDK's client, each with a tool that starts a
Starlette app on uvicorn inside the server's own event loop when first called, reports the page's
address in a progress notification, and waits for the answer the page posts:

- ours: `provide-choice serve --no-browser`, a `provide_choice` question (single choice, batch mode);
- baseline: a bare `MCPServer` whose tool serves one minimal page: a script that draws the same
  radio buttons and a Submit button, and posts the answer.

Measured in Chromium: from the tool call to the page being interactive (its script has drawn the
options), with the bridge cold (the first question of a fresh server process: Starlette and uvicorn
imported and started) and warm (the next question, while the bridge still runs), then from clicking
Submit to the tool result. The sides take turns question by question, in the same run, so the
ratios cancel out the machine's speed. Target: ratio at most 1.5 warm.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters
from playwright.async_api import Browser, Page, async_playwright

# Chromium is launched as the browser tests launch it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from attended import attended_environment
from chromium import launch_chromium

PROCESSES = 5
WARM_QUESTIONS = 12
TARGET_WARM_RATIO = 1.5

QUESTION = {
    "title": "Database",
    "prompt": "The app needs storage and nothing is configured. Which database should I set up?",
    "selection_mode": "single",
    "single_submit_mode": False,
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}

BASELINE_SERVER = '''
import asyncio
import secrets
import socket

from mcp.server.mcpserver import Context, MCPServer

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Database</title>
<script src="/page.js" defer></script></head><body><h1>Database</h1><form id="form"></form>
</body></html>"""
SCRIPT = """
const form = document.getElementById("form");
for (const [value, label] of [["pg", "PostgreSQL"], ["lite", "SQLite"]]) {
  const input = document.createElement("input");
  input.type = "radio"; input.name = "choice"; input.value = value; input.id = value;
  const text = document.createElement("label");
  text.htmlFor = value; text.textContent = label;
  form.append(input, text);
}
const submit = document.createElement("button");
submit.textContent = "Submit";
form.append(submit);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  const chosen = form.querySelector("input:checked");
  fetch(location.pathname + "/answer", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({selected_ids: chosen ? [chosen.value] : []})});
});
"""
server = MCPServer("baseline")
running: dict[str, object] = {}
answers: dict[str, asyncio.Future[object]] = {}


async def start() -> str:
    if "url" in running:
        return str(running["url"])
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    async def script(request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript")

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE)

    async def answer(request: Request) -> Response:
        answers[request.path_params["question_id"]].set_result(await request.json())
        return JSONResponse({})

    app = Starlette(
        routes=[
            Route("/page.js", script),
            Route("/q/{question_id}", page),
            Route("/q/{question_id}/answer", answer, methods=["POST"]),
        ]
    )

    listener = socket.create_server(("127.0.0.1", 0))
    # As provide_choice's bridge does: without it, keep-alive responses wait ~40 ms (Nagle).
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    uvicorn_server = uvicorn.Server(
        uvicorn.Config(app, log_config=None, log_level="warning", lifespan="off")
    )
    running["task"] = asyncio.get_running_loop().create_task(
        uvicorn_server.serve(sockets=[listener])
    )
    while not uvicorn_server.started:
        await asyncio.sleep(0.005)
    running["url"] = f"http://127.0.0.1:{listener.getsockname()[1]}"
    return str(running["url"])


@server.tool()
async def ask(ctx: Context) -> str:
    """Show the page and wait for its answer."""
    question_id = secrets.token_hex(24)
    answers[question_id] = asyncio.get_running_loop().create_future()
    url = f"{await start()}/q/{question_id}"
    await ctx.report_progress(0, 1, f"Waiting for the person to answer at {url}")
    try:
        return str(await answers[question_id])
    finally:
        del answers[question_id]


server.run()
'''


@dataclass
class Side:
    """One of the two servers and how to ask it."""

    name: str
    parameters: StdioServerParameters
    tool: str
    arguments: dict[str, Any]
    ready_selector: str
    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)
    submit: list[float] = field(default_factory=list)


async def ask_once(client: Client, browser: Browser, side: Side) -> tuple[float, float]:
    """One question: seconds from the call to an interactive page, and from Submit to the result."""
    address: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        found = re.search(r"at (http://\S+?):? ", (message or "") + " ")
        if found and not address.done():
            address.set_result(found.group(1))

    page: Page = await browser.new_page()
    started = time.perf_counter()
    call = asyncio.create_task(
        client.call_tool(side.tool, side.arguments, progress_callback=on_progress)
    )
    await page.goto(await asyncio.wait_for(address, 30))
    await page.wait_for_selector(side.ready_selector)
    interactive = time.perf_counter() - started
    await page.check("input[value=lite]")
    submitted = time.perf_counter()
    await page.click("button:text-is('Submit')")
    result = await asyncio.wait_for(call, 30)
    answered = time.perf_counter() - submitted
    assert not result.is_error, result.content
    await page.close()
    return interactive, answered


async def measure(browser: Browser, sides: tuple[Side, Side]) -> None:
    """A fresh process of each side: the first question finds its bridge cold, the next ones warm.

    The two sides take turns question by question (who goes first alternates), so a slower moment
    of the machine falls on both alike.
    """
    async with Client(sides[0].parameters) as first, Client(sides[1].parameters) as second:
        clients = {sides[0].name: first, sides[1].name: second}
        for round_number in range(1 + WARM_QUESTIONS):
            order = sides if round_number % 2 == 0 else sides[::-1]
            for side in order:
                interactive, answered = await ask_once(clients[side.name], browser, side)
                (side.warm if round_number else side.cold).append(interactive)
                side.submit.append(answered)


def milliseconds(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:5.0f} ms"


async def main() -> int:
    command = shutil.which("provide-choice", path=str(Path(sys.executable).parent))
    if command is None:
        print("provide-choice is not installed in this environment", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as directory:
        baseline_script = Path(directory) / "baseline_server.py"
        baseline_script.write_text(BASELINE_SERVER)
        environment = attended_environment(directory)
        ours = Side(
            "provide-choice portal",
            StdioServerParameters(command=command, args=["serve", "--no-browser"], env=environment),
            "provide_choice",
            QUESTION,
            "#answer-fields input[value=lite]",
        )
        baseline = Side(
            "minimal Starlette page",
            StdioServerParameters(command=sys.executable, args=[str(baseline_script)]),
            "ask",
            {},
            "#form input[value=lite]",
        )
        async with async_playwright() as playwright:
            browser = await launch_chromium(playwright)
            # One unrecorded pass warms the file cache for both sides.
            unrecorded = [replace(side, cold=[], warm=[], submit=[]) for side in (ours, baseline)]
            await measure(browser, (unrecorded[0], unrecorded[1]))
            for _ in range(PROCESSES):
                await measure(browser, (ours, baseline))
            await browser.close()
    report: list[tuple[str, Callable[[Side], list[float]]]] = [
        ("call to interactive page, bridge cold", lambda side: side.cold),
        ("call to interactive page, bridge warm", lambda side: side.warm),
        ("Submit click to tool result          ", lambda side: side.submit),
    ]
    for title, samples in report:
        ratio = statistics.median(samples(ours)) / statistics.median(samples(baseline))
        print(
            f"{title}: ours {milliseconds(samples(ours))}, baseline "
            f"{milliseconds(samples(baseline))}, ratio {ratio:.2f}"
        )
    warm_ratio = statistics.median(ours.warm) / statistics.median(baseline.warm)
    print(
        f"medians of {PROCESSES} cold and {PROCESSES * WARM_QUESTIONS} warm questions per side; "
        f"warm ratio {warm_ratio:.2f} (target at most {TARGET_WARM_RATIO})"
    )
    return 0 if warm_ratio <= TARGET_WARM_RATIO else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
