"""Launching Chromium the one way the browser tests and the benchmarks use: headless.

Pages are drawn by Chromium's headless shell where there is one (`$CHROMIUM_HEADLESS_SHELL_PATH`,
else Debian's): the same engine without the browser's window, taking about a third less CPU per
page. It denies every page Web Notifications, so what tests those runs in the full Chromium
(`notifications=True`: `$CHROMIUM_PATH`, else /usr/bin/chromium), as does every test where no
headless shell is found.
"""

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
DEBIAN_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


def chromium_executable(*, notifications: bool = False) -> str:
    """The Chromium to launch: the headless shell where there is one, unless the pages need
    Web Notifications (`make test` has made sure the full one is there)."""
    full = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    if notifications:
        return full
    shell = os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH")
    if shell is None and os.access(DEBIAN_HEADLESS_SHELL, os.X_OK):
        shell = DEBIAN_HEADLESS_SHELL
    return shell or full


async def launch_chromium(playwright: Playwright, *, notifications: bool = False) -> Browser:
    """A headless Chromium (`chromium_executable`)."""
    return await playwright.chromium.launch(
        executable_path=chromium_executable(notifications=notifications), args=CHROMIUM_ARGS
    )
