"""`WebTransport`: the question as a page on the bridge, answered in the person's browser.

It is the transport for a server without a terminal (the usual case for an MCP server a desktop
client starts over stdio) and for requests that ask for `transport="web"`. The page is plain FastAPI
on the shared bridge, not a NiceGUI app: it is usable in the browser sooner, and a bridge that stops
between questions leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from typing import TYPE_CHECKING

from provide_choice._bridge import Bridge
from provide_choice._portal._page import QuestionPages
from provide_choice._sessions import PendingQuestion, QuestionRegistry

if TYPE_CHECKING:
    from fastapi import FastAPI


class WebTransport:
    """Shows the question at `/choice/<id>` on the bridge and opens it in the browser; the page
    finishes it. Any number of questions may wait at once."""

    cancelled_with_the_call = True

    def __init__(
        self, bridge: Bridge, registry: QuestionRegistry, *, open_browser: bool = True
    ) -> None:
        self.bridge = bridge
        self.pages = QuestionPages(registry)
        self.open_browser = open_browser
        bridge.add_routes(self._install_routes)

    async def show(self, question: PendingQuestion) -> None:
        base_url = await self.bridge.hold(question)
        self.pages.open(question)
        url = f"{base_url}/choice/{question.id}"
        question.show_at(url)
        # Tell the person too: the agent hears it in progress notifications and in the result.
        print(f"provide-choice: question waiting at {url}", file=sys.stderr, flush=True)
        if self.open_browser:
            open_in_browser(url)

    def _install_routes(self, app: FastAPI) -> None:
        from provide_choice._portal._routes import install

        install(app, self.pages)


def open_in_browser(url: str) -> None:
    """Open `url` in the person's browser, in a thread nobody waits for (a browser command may stay
    in the foreground until the browser exits), without touching this process's stdio.

    Over stdio, this process's stdin and stdout carry the MCP protocol. `webbrowser` may run a
    `$BROWSER` command, or a console browser such as lynx when there is no display, with our stdin
    and stdout: it could read protocol bytes or write into the stream. So every command it starts
    gets no stdin and writes to stderr; and nothing here writes to stderr by itself (no bell).
    """
    threading.Thread(
        target=_open_quietly, args=(url,), name="provide-choice-browser", daemon=True
    ).start()


def _open_quietly(url: str) -> None:
    import webbrowser

    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return  # no browser here: the address is on stderr and in the result
    if isinstance(browser, webbrowser.GenericBrowser):  # $BROWSER, xdg-open and the like
        command = [browser.name, *(arg.replace("%s", url) for arg in browser.args)]
        with contextlib.suppress(OSError):
            subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
    elif isinstance(browser, webbrowser.UnixBrowser) and not browser.background:
        return  # a console browser (lynx, w3m) needs the terminal this server does not own
    else:  # a graphical browser: webbrowser gives it no stdin and no stdout
        browser.open_new_tab(url)
