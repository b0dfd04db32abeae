"""`provide-choice inbox`: one local page listing every question waiting in any server of this
person, and the last ones that ended, read live from the shared history.

It is a plain Starlette app on uvicorn, on 127.0.0.1, under the bridge's rules: `HostGuard`
refuses a foreign `Host` (DNS rebinding) and state-changing requests from other origins (it has
none of its own to offer); the page's one script and one style sheet are inline and pinned by hash
in its Content-Security-Policy; agent text goes into the page as JSON its script shows as text.
It speaks the person's language: their setting, else the browser's `Accept-Language`.
Beyond those, every route asks for the inbox's token (`TokenGuard`): the inbox lists what each
question's 192-bit id keeps from other processes.
"""

from __future__ import annotations

import asyncio
import sys
from string import Template
from typing import TYPE_CHECKING, Any, Protocol

from present_choices import ChoicesError
from present_choices._script_words import markup_words
from present_choices._stopping import Stopped, stop_on_signals
from present_choices._translation import Translation, accepted_languages, chosen
from provide_choice._bridge._local_http import (
    ICONS,
    SHARED_STYLE_SHEET,
    WORDS_SCRIPT,
    BodyRefused,
    asset,
    joined_script,
    listening_socket,
    open_in_browser,
    page_headers,
    read_json,
    refusal,
    route,
    script_safe_json,
    web_app,
    words_json,
)
from provide_choice._bridge._site import HOST, HostGuard, loopback_site
from provide_choice._history._inbox._shared_state import SharedInboxState
from provide_choice._history._inbox._state import InboxState
from provide_choice._history._inbox._token import TokenGuard, new_token
from provide_choice._history._inbox_link import (
    address_with_token,
    announce,
    opener,
    running_inbox,
    withdraw,
)
from provide_choice._history._store import history_path
from provide_choice._question import StoreUnavailable
from provide_choice._settings_file import load_settings, terminal_words

if TYPE_CHECKING:
    import socket
    import threading
    from collections.abc import Callable

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from provide_choice._question import QuestionStore

DEFAULT_PORT = 8766
OPENING_SECONDS = 5.0
"""How long a second `provide-choice inbox` waits for the browser command it started (one that
stays in the foreground until the browser exits is left running)."""
PACKAGE = "provide_choice._history._inbox"


def page_assets() -> tuple[str, str]:
    """The page's script and style sheet: the pages' words and the inbox's script; the question
    page's style sheet (its colours, cards, dark mode and narrow layout) followed by the inbox's
    own rules."""
    style = asset(SHARED_STYLE_SHEET) + "\n" + asset("inbox.css", PACKAGE)
    return joined_script([asset(WORDS_SCRIPT), asset("inbox.js", PACKAGE)]), style


def page_language(accept_language: str | None) -> Translation:
    """The inbox's language for one request: the person's setting (read now: it may have changed
    on any surface), else the browser's (its `Accept-Language`)."""
    return chosen(load_settings().language, accepted_languages(accept_language))


class InboxSource(Protocol):
    """Where the inbox reads what it shows: this machine's history (`InboxState`), or the store
    that instances on one Redis share (`SharedInboxState`); and where "I'm away" is saved."""

    async def read(self, translation: Translation) -> dict[str, Any]: ...

    async def away(self, data: object) -> None: ...

    async def close(self) -> None: ...


def create_app(state: InboxSource, port: Callable[[], int], token: str) -> Starlette:
    """The inbox's routes: the page (`/`), its state (`/state`, polled), "I'm away" (`/away`) and
    its icon, each only with `token`; `port` is the port it is bound to, for the Host check and
    the cookie's name."""
    # Deferred for start-up time: loaded only when this runs.
    from starlette.responses import HTMLResponse, JSONResponse, Response

    script, style = page_assets()
    headers = page_headers(script, style)
    app = web_app()
    app.add_middleware(TokenGuard, token=token, port=port)
    # Added last: checked first.
    app.add_middleware(HostGuard, site=lambda: loopback_site(port()), name="inbox")

    @route(app, "GET", "/")
    async def page(request: Request) -> Response:
        translation = page_language(request.headers.get("accept-language"))
        snapshot = await state.read(translation)
        html = Template(asset("inbox.html", PACKAGE)).substitute(
            markup_words(PACKAGE, translation),
            language=translation.tag,
            style=style,
            state=script_safe_json(snapshot),
            words=words_json(PACKAGE),
            script=script,
        )
        return HTMLResponse(html, headers=headers)

    @route(app, "GET", "/state")
    async def current(request: Request) -> Response:
        snapshot = await state.read(page_language(request.headers.get("accept-language")))
        return JSONResponse({"state": snapshot}, headers=headers)

    @route(app, "POST", "/away")
    async def away(request: Request) -> Response:
        """The person is away for a while, or back: saved in their settings."""
        try:
            await state.away(await read_json(request))
        except BodyRefused as refused:
            return refusal(refused.status, [refused.problem], headers)
        except ChoicesError as error:
            return refusal(422, error.problems, headers)
        except StoreUnavailable as away:
            return refusal(503, [str(away)], headers)
        return await current(request)

    @route(app, "GET", "/{name}.svg")
    async def icon(request: Request) -> Response:
        svg = ICONS.get(f"{request.path_params['name']}.svg")
        if svg is None:
            return Response(status_code=404, headers=headers)
        return Response(
            svg, media_type="image/svg+xml", headers=headers | {"Cache-Control": "no-cache"}
        )

    return app


def serve_inbox(
    port: int = DEFAULT_PORT, *, open_browser: bool = True, store: QuestionStore | None = None
) -> None:
    """Serve the inbox until Ctrl-C or SIGTERM, which remove its record and its opener page as it
    stops: the questions of this machine's servers, or with `store` those of every instance
    sharing it. An inbox that already runs is opened instead of a second one, and its full address
    printed again; the files of one that was killed are replaced. Raises `OSError` when the port
    cannot be bound."""
    already = running_inbox()
    if already is not None:
        words = terminal_words()
        if open_browser:
            _note(words.gettext("the inbox already runs at {address}; opening it", address=already))
        else:
            _note(words.gettext("the inbox already runs at {address}", address=already))
        if open_browser:
            opening = _open(already)
            if opening is not None:
                opening.join(OPENING_SECONDS)  # this process ends now, and its thread with it
        return
    listener = listening_socket(port)
    bound = listener.getsockname()[1]
    url, token = f"http://{HOST}:{bound}", new_token()
    address = address_with_token(url, token)
    state: InboxSource = InboxState(history_path()) if store is None else SharedInboxState(store)
    try:
        with stop_on_signals():
            try:
                _announce(url, token, address)
                if open_browser:
                    _open(address)
                asyncio.run(_serve(create_app(state, lambda: bound, token), listener, state))
            finally:
                withdraw()
    except Stopped as stop:
        _note(stop.said(terminal_words()))


def _announce(url: str, token: str, address: str) -> None:
    """Write the record (replacing one a killed inbox left), then print the address."""
    problem = None
    try:
        announce(url, token)  # first: once the address is printed, a second inbox finds this one
    except OSError as error:  # the inbox works; question pages just cannot link back to it
        problem = error.strerror or str(error)
    words = terminal_words()
    _note(words.gettext("inbox at {address} (Ctrl-C stops it)", address=address))
    if problem is not None:
        _note(
            words.gettext(
                "warning: question pages cannot link back here, and `provide-choice inbox` cannot "
                "find this one again ({problem})",
                problem=problem,
            )
        )


def _open(address: str) -> threading.Thread | None:
    """Open the inbox in the browser through its private opener page; the thread that opens it.
    Where that page cannot be written, the browser is not opened: started with the address, it
    would show the token to every process on the machine, for as long as it runs."""
    try:
        page = opener(address)
    except OSError as error:
        _note(
            terminal_words().gettext(
                "warning: not opening the browser ({problem}); open the address above",
                problem=error.strerror or error,
            )
        )
        return None
    return open_in_browser(page.as_uri())


async def _serve(app: Starlette, listener: socket.socket, state: InboxSource) -> None:
    # Deferred for start-up time: loaded only when this runs.
    import uvicorn

    config = uvicorn.Config(
        app, log_config=None, log_level="warning", access_log=False, lifespan="off"
    )
    try:
        await uvicorn.Server(config).serve(sockets=[listener])
    finally:
        await state.close()


def _note(message: str) -> None:
    print(f"provide-choice inbox: {message}", file=sys.stderr, flush=True)
