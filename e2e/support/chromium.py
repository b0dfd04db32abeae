"""Launching Chromium the one way the browser tests and the benchmarks use: Debian's, headless."""

from __future__ import annotations

import os

from playwright.async_api import Browser, Playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


async def launch_chromium(playwright: Playwright) -> Browser:
    """`$CHROMIUM_PATH`, else /usr/bin/chromium (`make test` has made sure one is there)."""
    executable = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    return await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
