"""How soon the present_choices app offers its first option, against a static page with the same
buttons in the same frame.

Both are drawn by the MCP Apps test host (the official `AppBridge`, e2e/support/app_host) in
Chromium, in the same sandboxed frame under the same content security policy:

- ours: the view the server serves for `present_choices` (read through the MCP SDK's client, as a
  host reads it); the host has the call's arguments and sends them as soon as the app has
  initialized, as hosts do;
- baseline: a static document holding the same question and buttons (and the same style sheet),
  with no script at all.

Measured on the host's clock, from the moment the host starts loading the frame to the moment the
frame holds its first option button (a script Chromium runs in every frame, before the page's own,
watches for it). The sides take turns in the same run, so the ratio cancels out the machine's
speed. Also printed: for ours, from the tool input leaving the host to the first option. Target:
ratio at most 1.5.
"""

from __future__ import annotations

import asyncio
import html
import statistics
import sys
import tempfile
from pathlib import Path

from mcp import Client
from playwright.async_api import Page, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e" / "support"))
from app_host import AppHost, HostUnavailable, apps_extension, build_host_bundle
from chromium import launch_chromium

from provide_choice import create_server
from provide_choice._apps._views import PACKAGE, STYLE_SHEET
from provide_choice._transports._portal._page import asset

WARM_UP = 3
ROUNDS = 25
TARGET_RATIO = 1.5

ARGUMENTS = {
    "question": "Which database should I set up?",
    "context": "Both work with the ORM; PostgreSQL scales further.",
    "options": [
        {"label": "PostgreSQL", "value": "Use PostgreSQL"},
        {"label": "SQLite", "value": "Use SQLite"},
        {"label": "Ask me later", "value": "Ask me later"},
    ],
}

FIRST_BUTTON_WATCH = """
if (window.parent !== window) {
  new MutationObserver((records, observer) => {
    if (!document.querySelector("button")) return;
    observer.disconnect();
    requestAnimationFrame(() => window.parent.postMessage({ benchFirstButton: true }, "*"));
  }).observe(document, { childList: true, subtree: true });
}
"""
"""Run in every frame before its own scripts: tells the host when the first button is there and
about to be painted (the next animation frame: styled and laid out, so it can be clicked)."""

HOST_CLOCK = """
window.benchFirstButtonAt = 0;
window.addEventListener("message", (event) => {
  if (event.data && event.data.benchFirstButton) window.benchFirstButtonAt = performance.now();
});
"""


def static_page() -> str:
    """The baseline: the question and its buttons as the app draws them, written out in HTML."""
    buttons = "".join(
        f'<button type="button" class="choice-option" aria-pressed="false">'
        f"{html.escape(option['label'])}</button>"
        for option in ARGUMENTS["options"]
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Choices</title>'
        f"<style>{asset(STYLE_SHEET, PACKAGE)}</style></head><body><main>"
        '<div role="group" aria-labelledby="q" class="choice-group">'
        f'<p id="q" class="choice-question">{html.escape(ARGUMENTS["question"])}</p>'
        f'<p class="choice-context">{html.escape(ARGUMENTS["context"])}</p>'
        f'<div class="choice-options">{buttons}</div></div></main></body></html>'
    )


async def first_button(page: Page) -> tuple[float, float]:
    """Milliseconds from the frame starting to load, and from the tool input being sent, to the
    first button in the frame."""
    await page.wait_for_function("window.benchFirstButtonAt > appHost.record.loadingSince")
    loading, input_sent, drawn = await page.evaluate(
        "[appHost.record.loadingSince, appHost.record.inputSentAt, window.benchFirstButtonAt]"
    )
    return drawn - loading, drawn - input_sent


async def main() -> int:
    try:
        bundle = build_host_bundle(Path(tempfile.mkdtemp(prefix="app-bench-")))
    except HostUnavailable as missing:
        print(f"app: skipped, {missing}")
        return 0
    ours: list[float] = []
    from_input: list[float] = []
    baseline: list[float] = []
    async with (
        async_playwright() as playwright,
        Client(create_server(), extensions=[apps_extension()]) as client,
    ):
        browser = await launch_chromium(playwright)
        async with AppHost.opened(browser, client, bundle) as host:
            page = host.page
            await page.context.add_init_script(FIRST_BUTTON_WATCH)
            await page.evaluate(HOST_CLOCK)
            view = host.serve(await host.view_of("present_choices"))
            static = host.serve(static_page())
            for round_number in range(WARM_UP + ROUNDS):
                await page.evaluate(
                    "([url, input]) => appHost.mount(url, { toolInput: input })",
                    [view, ARGUMENTS],
                )
                loaded, after_input = await first_button(page)
                await page.evaluate("(url) => appHost.showDocument(url)", static)
                static_loaded, _ = await first_button(page)
                if round_number >= WARM_UP:
                    ours.append(loaded)
                    from_input.append(after_input)
                    baseline.append(static_loaded)
            assert host.foreign_requests() == [], host.foreign_requests()
        await browser.close()
    ours_time, baseline_time = statistics.median(ours), statistics.median(baseline)
    ratio = ours_time / baseline_time
    print(f"app: frame to first option, present_choices app:  {ours_time:6.1f} ms (median)")
    print(f"app: frame to first button, static page:           {baseline_time:6.1f} ms (median)")
    print(
        f"app: tool input to first option, app:              {statistics.median(from_input):6.1f} ms"
    )
    print(f"app: ratio {ratio:.2f} (target at most {TARGET_RATIO})")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
