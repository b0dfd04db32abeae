"""`WebTransport`: the question as a page on the bridge, answered in the person's browser.

It is the transport for a server without a terminal (the usual case for an MCP server a desktop
client starts over stdio) and for requests that ask for `transport="web"`. The page is plain FastAPI
on the shared bridge, not a NiceGUI app: it is usable in the browser sooner, and a bridge that stops
between questions leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

import anyio

from provide_choice._bridge import Bridge
from provide_choice._portal._page import QuestionPages
from provide_choice._response import Outcome
from provide_choice._sessions import QuestionRegistry
from provide_choice._transport import Interaction

if TYPE_CHECKING:
    from fastapi import FastAPI


class WebTransport:
    """Registers the question at `/choice/<id>` on the bridge, opens it in the browser, and waits
    for the answer, a cancel or the deadline. Any number of questions may wait at once."""

    def __init__(
        self, bridge: Bridge, registry: QuestionRegistry, *, open_browser: bool = True
    ) -> None:
        self.bridge = bridge
        self.pages = QuestionPages(registry)
        self.open_browser = open_browser
        bridge.add_routes(self._install_routes)

    async def ask(self, interaction: Interaction) -> Outcome:
        base_url = await self.bridge.acquire()
        try:
            question = self.pages.registry.create(interaction, "web")
            page = self.pages.open(question)
            self._show(f"{base_url}/choice/{question.id}", interaction)
            try:
                return await question.wait()
            except asyncio.CancelledError:
                page.end_for_the_agent()
                raise
        finally:
            # Also when the call was cancelled: the bridge must not wait for this question forever.
            with anyio.CancelScope(shield=True):
                await self.bridge.release()

    def _show(self, url: str, interaction: Interaction) -> None:
        """Tell the person (stderr, the browser) and the agent (progress) where the question is."""
        print(f"provide-choice: question waiting at {url}", file=sys.stderr, flush=True)
        if interaction.wait_status is not None:
            interaction.wait_status.update(url=url)
        if self.open_browser:
            threading.Thread(
                target=open_in_browser, args=(url,), name="provide-choice-browser", daemon=True
            ).start()

    def _install_routes(self, app: FastAPI) -> None:
        from provide_choice._portal._routes import install

        install(app, self.pages)


def open_in_browser(url: str) -> None:
    """Open `url` with Python's `webbrowser` module, in a child process cut off from our stdio.

    Over stdio, this process's stdin and stdout carry the MCP protocol. `webbrowser` runs a
    `$BROWSER` command, or a console browser such as lynx when there is no display, with our stdin
    and stdout: it could read protocol bytes or write into the stream. The child gets no stdin and
    writes to stderr. It runs in a thread nobody waits for because a browser command may stay in
    the foreground until the browser exits.
    """
    subprocess.run(
        [sys.executable, "-m", "webbrowser", "-t", url],
        stdin=subprocess.DEVNULL,
        stdout=sys.stderr.fileno(),
        check=False,
    )
