"""The inbox's token: the one credential its routes ask for.

Each question's page is reachable only through its 192-bit id, and the history is readable by its
owner alone; the inbox lists every waiting question with its page's address, so it must be no easier
to reach. It makes a random token when it starts, keeps it only in its record in the person's data
directory (mode 600, `_history._inbox_link`), and puts it in the address it prints and opens:
`http://127.0.0.1:PORT/?token=TOKEN`. `TokenGuard` refuses every request that carries neither that
token nor the cookie the first visit with it sets (HttpOnly, so no script reads it; SameSite=Strict,
so no other site's page sends it), comparing in constant time; the page then drops the token from
the address bar. Nothing here imports a web framework until a request arrives.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from provide_choice._bridge._local_http import refusal
from provide_choice._history._inbox_link import QUERY_NAME

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_BYTES = 32
"""256 random bits, as 43 URL-safe characters."""
COOKIE_PREFIX = "provide-choice-inbox-"
REFUSED = (
    "this inbox opens only at the address it printed, which carries its token, and this request "
    "had neither that token nor the cookie its first visit sets: run `provide-choice inbox` again "
    "to get the address (it prints the one of the inbox that runs)"
)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def cookie_name(port: int) -> str:
    """One cookie per port: a browser sends 127.0.0.1's cookies to every port of it, so two inboxes
    (two people's, or two homes) would otherwise overwrite each other's."""
    return f"{COOKIE_PREFIX}{port}"


def matches(given: str | None, token: str) -> bool:
    """Whether `given` is the token, in time that does not depend on where they differ."""
    if given is None:
        return False
    # Bytes: compare_digest refuses str that is not ASCII, and a request may carry any text.
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), token.encode())


class TokenGuard:
    """ASGI middleware: every request must carry the token, in the address (`?token=`, which also
    sets the cookie on the response) or in the cookie; anything else gets 403 in the project's one
    refusal shape, saying how to get the address. `port` is the bound port, for the cookie's name."""

    def __init__(self, app: ASGIApp, token: str, port: Callable[[], int]) -> None:
        self.app = app
        self.token = token
        self.port = port

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        # Deferred for start-up time: loaded only when this runs.
        from starlette.requests import HTTPConnection

        connection = HTTPConnection(scope)
        name = cookie_name(self.port())
        if matches(connection.query_params.get(QUERY_NAME), self.token):
            await self.app(scope, receive, _setting_cookie(send, name, self.token))
        elif matches(connection.cookies.get(name), self.token):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "no inbox token"})
        else:
            response = refusal(403, [REFUSED], {"Cache-Control": "no-store"})
            await response(scope, receive, send)


def _setting_cookie(send: Send, name: str, token: str) -> Send:
    """`send`, adding to the response's headers the cookie that stands in for the token from now on:
    a session cookie (gone when the browser closes) for every path of this host."""
    header = f"{name}={token}; HttpOnly; SameSite=Strict; Path=/".encode("latin-1")

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", header)]}
        await send(message)

    return sending
