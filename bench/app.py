"""How soon each MCP App offers its first option, against a static page with the same buttons in
the same frame.

Both apps are drawn by the MCP Apps test host (the official `AppBridge`, e2e/support/app_host) in
Chromium, in the same sandboxed frame under the same content security policy:

- ours: the view the server serves for the tool (read through the MCP SDK's client, as a host reads
  it); the host makes the call and draws the view at once, and sends it the call's arguments as
  soon as it has initialized, as hosts do. The provide_choice view then finds its question on the
  server, through the host's `tools/call`, and draws it;
- baseline: a static document holding what the view drew for the same question (its markup and
  style sheet as they stand once drawn), with no script at all.

Measured on the host's clock, up to the moment the frame holds its first option, styled and laid
out (a script Chromium runs in every frame, before the page's own, watches for it): for the app,
from the tool input leaving the host (the app has loaded and initialized, as it has in a host by
the time the input comes); for the static page, from the host starting to load it into the frame.
That ratio is the target: at most 1.5 for each app. Also printed, for what it is: the app from the
host starting to load its frame (its whole start: the document, the handshake with the host, and
for provide_choice the round trip to the server), against the same static page. The sides take
turns in the same run, so the ratios cancel out the machine's speed.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from mcp import Client
from playwright.async_api import Page, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from app_host import AppHost, HostUnavailable, apps_extension, build_host_bundle
from chromium import launch_chromium

from provide_choice import create_server

WARM_UP = 3
ROUNDS = 30
TARGET_RATIO = 1.5

APPS: dict[str, tuple[dict[str, Any], str]] = {
    "present_choices": (
        {
            "question": "Which database should I set up?",
            "context": "Both work with the ORM; PostgreSQL scales further.",
            "options": [
                {"label": "PostgreSQL", "value": "Use PostgreSQL"},
                {"label": "SQLite", "value": "Use SQLite"},
                {"label": "Ask me later", "value": "Ask me later"},
            ],
        },
        ".choice-option",
    ),
    "provide_choice": (
        {
            "title": "Database",
            "prompt": "The app needs storage and **nothing** is configured. Which one?",
            "selection_mode": "single",
            "options": [
                {"id": "pg", "label": "PostgreSQL", "description": "scales", "recommended": True},
                {"id": "lite", "label": "SQLite", "description": "one file"},
            ],
        },
        ".option input",
    ),
}
"""Each tool: the call's arguments, and what its first option is in the view."""

FIRST_OPTIONS = ", ".join(selector for _arguments, selector in APPS.values())
FIRST_OPTION_WATCH = (
    """
if (window.parent !== window) {
  new MutationObserver((records, observer) => {
    if (!document.querySelector("FIRST_OPTIONS")) return;
    observer.disconnect();
    requestAnimationFrame(() => window.parent.postMessage({ benchFirstOption: true }, "*"));
  }).observe(document, { childList: true, subtree: true });
}
"""
).replace("FIRST_OPTIONS", FIRST_OPTIONS)
"""Run in every frame before its own scripts: tells the host when the first option (of either
app) is there and about to be painted (the next animation frame: styled and laid out, so it can be
clicked)."""

HOST_CLOCK = """
window.benchFirstOptionAt = 0;
window.addEventListener("message", (event) => {
  if (event.data && event.data.benchFirstOption) window.benchFirstOptionAt = performance.now();
});
"""
SCRIPTS = re.compile(r"<script\b.*?</script>", re.DOTALL)


async def first_option(page: Page) -> tuple[float, float]:
    """Milliseconds from the frame starting to load, and from the tool input being sent, to the
    first option in the frame."""
    await page.wait_for_function("window.benchFirstOptionAt > appHost.record.loadingSince")
    loading, input_sent, drawn = await page.evaluate(
        "[appHost.record.loadingSince, appHost.record.inputSentAt, window.benchFirstOptionAt]"
    )
    return drawn - loading, drawn - input_sent


async def measure(host: AppHost, tool: str) -> tuple[list[float], list[float], list[float]]:
    """Rounds of (our view, the static page) on the same frame; the calls are left unanswered."""
    arguments, selector = APPS[tool]
    page = host.page
    ours: list[float] = []
    from_input: list[float] = []
    baseline: list[float] = []
    static = None
    for round_number in range(WARM_UP + ROUNDS):
        call = await host.show(tool, arguments)
        loaded, after_input = await first_option(page)
        if static is None:  # what the view drew, without its script
            await host.frame.wait_for_selector(selector)
            static = host.serve(SCRIPTS.sub("", await host.frame.content()))
        if call is not None:
            call.cancel()
        await page.evaluate("(url) => appHost.showDocument(url)", static)
        static_loaded, _ = await first_option(page)
        if round_number >= WARM_UP:
            ours.append(loaded)
            from_input.append(after_input)
            baseline.append(static_loaded)
    return ours, from_input, baseline


async def main() -> int:
    try:
        bundle = build_host_bundle(Path(tempfile.mkdtemp(prefix="app-bench-")))
    except HostUnavailable as missing:
        print(f"app: skipped, {missing}")
        return 0
    ratios = {}
    async with (
        async_playwright() as playwright,
        Client(create_server(), extensions=[apps_extension()]) as client,
    ):
        browser = await launch_chromium(playwright)
        for tool in APPS:
            async with AppHost.opened(browser, client, bundle) as host:
                await host.page.context.add_init_script(FIRST_OPTION_WATCH)
                await host.page.evaluate(HOST_CLOCK)
                ours, from_input, baseline = await measure(host, tool)
                assert host.foreign_requests() == [], host.foreign_requests()
            loaded, after_input = statistics.median(ours), statistics.median(from_input)
            static = statistics.median(baseline)
            ratios[tool] = after_input / static
            print(
                f"app: {tool}: tool input to first option, the app: {after_input:6.1f} ms (median)"
            )
            print(f"app: {tool}: frame to first option, static page:  {static:6.1f} ms")
            print(f"app: {tool}: ratio {ratios[tool]:.2f} (target at most {TARGET_RATIO})")
            print(
                f"app: {tool}: frame to first option, the app:      {loaded:6.1f} ms "
                f"(its whole start; ratio {loaded / static:.2f} to the static page)"
            )
        await browser.close()
    return 0 if all(ratio <= TARGET_RATIO for ratio in ratios.values()) else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
