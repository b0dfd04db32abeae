"""What every local web page of this package shares: the question pages on the bridge and the inbox.

Both are served to the person's browser, and any web page the person visits can send requests
there, so both guard every route the same way (`_site.HostGuard`: the Host, the Origin, a JSON
body), read bodies the same way (`read_json`, at most `BODY_LIMIT` bytes) and refuse in one
shape (`refusal`: `{"problems": [...]}`). Their pages load nothing from elsewhere: one inline script
and one inline style sheet each, pinned by hash in the Content-Security-Policy (`page_headers`),
the style sheet they share (`SHARED_STYLE_SHEET`), the tab's icon (`ICON`); and both open in the
browser without touching this process's stdio (`open_in_browser`). Neither imports the other: both
import this, and build their apps with `web_app` and `route`. Nothing here imports Starlette or
uvicorn at start-up.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import socket
import subprocess
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from present_choices._script_words import script_catalogs
from provide_choice._bridge._site import HOST
from provide_choice._contract._request import LONE_SURROGATE

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response

    Endpoint = Callable[[Request], Awaitable[Response]]

BODY_LIMIT = 64 * 1024
"""Bytes of one request body or WebSocket message, on every route; far above any real answer."""

SHARED_STYLE_SHEET = "pages.css"
"""The style sheet every page starts with (colours, cards, dark mode, narrow layout), beside this
module; a page adds its own rules after it."""


class BodyRefused(Exception):
    """A body the bridge cannot take: `status` and the problem to answer with."""

    def __init__(self, status: int, problem: str) -> None:
        super().__init__(problem)
        self.status = status
        self.problem = problem


async def read_json(request: Request) -> object:
    """The request's JSON body, refused (never read whole) past `BODY_LIMIT`; see `parse_json`."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_LIMIT:
            raise BodyRefused(413, f"the body must be at most {BODY_LIMIT} bytes")
    return parse_json(body)


def parse_json(body: bytes | str) -> object:
    """JSON text as data, or `BodyRefused` (422) for anything a later step could trip on: bytes
    that are not UTF-8, text that is not JSON, numbers or nesting past what Python parses, and lone
    surrogates (valid JSON escapes, but no text: they cannot be encoded to answer with)."""
    try:
        data = json.loads(body)
    except UnicodeDecodeError:
        raise BodyRefused(422, "the body must be UTF-8 text") from None
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as are huge numbers
        raise BodyRefused(
            422, "the body must be JSON (numbers under 4,300 digits, nesting under 1,000 deep)"
        ) from None
    if _holds_lone_surrogate(data):
        raise BodyRefused(
            422, "text must be valid Unicode: lone surrogates (\\ud800 to \\udfff) are not text"
        )
    return data


def _holds_lone_surrogate(data: object) -> bool:
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def listening_socket(port: int, host: str = HOST) -> socket.socket:
    """A socket listening on `host`:`port` (0: any free port), for uvicorn to serve on; by
    default on 127.0.0.1, where only this machine reaches it.

    Binding it ourselves makes a taken port a clear `OSError` and lets clients connect as soon as
    the address is known. TCP_NODELAY is set by hand: asyncio sets it only on accepted sockets
    whose protocol is explicitly TCP, and `socket.create_server`'s is 0, so without it Nagle's
    algorithm meets the client's delayed ACK and every response after a connection's first one
    waits about 40 ms. Accepted connections inherit the option from the listener.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family)
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return listener


def refusal(
    status: int, problems: Sequence[str], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """The one shape of every refusal on the bridge, whatever the route: `{"problems": [...]}`,
    each problem a sentence saying what was wrong and what to do."""
    # Deferred for start-up time: loaded only when this runs.
    from starlette.responses import JSONResponse

    return JSONResponse({"problems": list(problems)}, status_code=status, headers=headers)


def web_app() -> Starlette:
    """An app for a page's routes (`route`), whose own refusals have the one shape too: an address
    that serves nothing (404), a method its route does not take (405)."""
    # Deferred for start-up time: loaded only when this runs.
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 405:
            allowed = (error.headers or {}).get("Allow", "")
            problem = f"{request.method} is not allowed here; this address takes {allowed}"
        elif error.status_code == 404:
            problem = f"nothing is served at {request.url.path}"
        else:
            problem = str(error.detail)
        return refusal(error.status_code, [problem], error.headers)

    return Starlette(exception_handlers={HTTPException: refused})


def route(app: Starlette, method: str, path: str) -> Callable[[Endpoint], Endpoint]:
    """Add the decorated function as `app`'s answer to `method` requests for `path`, whose
    `{name}` parts it reads from `request.path_params`."""

    def add(endpoint: Endpoint) -> Endpoint:
        app.add_route(path, endpoint, methods=[method])
        return endpoint

    return add


def page_headers(script: str, style: str) -> dict[str, str]:
    """The headers of a page whose only script and style sheet are these, inline: its
    Content-Security-Policy allows exactly them (by hash), and nothing from anywhere else."""
    policy = (
        f"default-src 'self'; script-src {_hash_source(script)}; "
        f"style-src {_hash_source(style)}; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    )
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        # The URL holds the question's secret id: links in the prompt must not pass it on.
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


def _hash_source(text: str) -> str:
    """The CSP source that allows exactly this inline script or style sheet."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


_ICON_MARK = (
    '<rect width="32" height="32" rx="7" fill="#1d5bb8"/><path d="M9 16.5l4.5 4.5L23 11" '
    'fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/>'
)
ICON = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">{_ICON_MARK}</svg>'
"""The tab's icon (a browser asks for one; without it, every page load logs a 404)."""
WAITING_ICON = (
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">{_ICON_MARK}'
    '<circle cx="25" cy="7" r="7" fill="#d93025" stroke="#fff" stroke-width="2"/></svg>'
)
"""The tab's icon while questions wait on the page: the same, with a red badge in its corner."""
ICONS = {"icon.svg": ICON, "icon-waiting.svg": WAITING_ICON}
"""The icons a page's tab shows, by the name they are served under."""


WORDS_SCRIPT = "words.js"
"""The first part of every page's script, beside this module: the page's words (`words()`) in the
language it speaks, from the JSON of the messages its scripts need (`words_json`)."""


@cache
def words_json(*packages: str) -> str:
    """The messages of the scripts of `packages` (each one's `messages.json`) in every language
    with a catalog: the JSON of a page's `words` block, data beside the state (no script, so the
    page's Content-Security-Policy has nothing to allow for it)."""
    return script_safe_json(script_catalogs(*packages))


def joined_script(parts: Iterable[str]) -> str:
    """One inline script: the parts joined in order inside one strict function, so they share
    their top-level names with each other and with nothing else. Each part says what it takes
    from the others (`/* global ... */`) and what it gives them (`/* exported ... */`)."""
    joined = "\n".join(parts)
    return f'"use strict";\n\n(() => {{\n{joined}}})();\n'


def script_safe_json(data: object) -> str:
    """JSON that cannot end its `<script type="application/json">` block early, whatever it holds."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def asset(name: str, package: str = __package__ or "provide_choice._bridge") -> str:
    """A file shipped beside a package's modules (a page, its script, its style sheet); without
    `package`, beside this module (the style sheet the pages share)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def open_in_browser(url: str) -> threading.Thread:
    """Open `url` in the person's browser, in a thread nobody needs to wait for (a browser command
    may stay in the foreground until the browser exits), without touching this process's stdio.
    A process about to exit joins the thread (with a timeout): it is a daemon, so it would die with
    the process before starting the browser.

    Over stdio, this process's stdin and stdout carry the MCP protocol. `webbrowser` may run a
    `$BROWSER` command, or a console browser such as lynx when there is no display, with our stdin
    and stdout: it could read protocol bytes or write into the stream. So every command it starts
    gets no stdin and writes to stderr; and nothing here writes to stderr by itself (no bell).
    """
    thread = threading.Thread(
        target=_open_quietly, args=(url,), name="provide-choice-browser", daemon=True
    )
    thread.start()
    return thread


def _open_quietly(url: str) -> None:
    # Deferred for start-up time: loaded only when this runs.
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
