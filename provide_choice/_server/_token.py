"""The server's token: the credential every MCP client sends to `provide-choice serve --http`.

Over HTTP, any process that reaches the port could call `provide_choice`: ask the person a question
in an agent's name, or poll a session it guessed. So every request to the MCP endpoint must carry
`Authorization: Bearer <token>` (`BearerGuard`); anything else gets 401 with `WWW-Authenticate:
Bearer` and goes no further. The pages and hand-offs need no token: a question's 192-bit id is their
secret, and the person's browser has no header to send.

The token is `$PROVIDE_CHOICE_TOKEN` (instances behind one proxy share it), else the one in
`server-token` in the data directory, made on the first start: 256 random bits, readable by the
person alone (mode 600, in a directory of mode 700). `client-config CLIENT --http URL` puts the same
token in each client's configuration. Tokens are compared in constant time.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from present_choices._private_files import NotPrivate, create_private, read_private
from provide_choice._bridge._site import send_refusal
from provide_choice._history._inbox._token import matches, new_token
from provide_choice._history._store import data_directory

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_VARIABLE = "PROVIDE_CHOICE_TOKEN"
TOKEN_FILE_NAME = "server-token"
STRONG_LENGTH = 32
"""Characters under which a token given in the environment is said to be guessable."""
TOKEN_SHAPE = re.compile(r"[\x21-\x7e]+")
"""Visible ASCII, no spaces: what an HTTP header carries as it is, in every client."""
REFUSED = (
    "this MCP server takes requests only with its token, as the header `Authorization: Bearer "
    "<token>`; `provide-choice client-config CLIENT --http URL`, run where the server runs, "
    "prints each client's configuration with it"
)


class TokenProblem(Exception):
    """The token cannot be had; the message says why and what to do."""


@dataclass(frozen=True)
class ServerToken:
    value: str
    source: str
    """Where it came from: `$PROVIDE_CHOICE_TOKEN`, or the token file's path."""
    made: bool = False
    """Whether it was made just now (the server says so, once)."""

    @property
    def weak(self) -> bool:
        return len(self.value) < STRONG_LENGTH


def token_path() -> Path:
    return data_directory() / TOKEN_FILE_NAME


def server_token() -> ServerToken:
    """The token this machine's server uses, made (and saved) when there is none yet. Raises
    `TokenProblem` for a token that cannot go in a header or a token file that is not private."""
    given = os.environ.get(TOKEN_VARIABLE, "").strip()
    if given:
        return ServerToken(_checked(given, f"${TOKEN_VARIABLE}"), f"${TOKEN_VARIABLE}")
    path = token_path()
    for _attempt in range(2):  # a second server may make it between our read and our write
        try:
            return ServerToken(_checked(read_private(path).strip(), str(path)), str(path))
        except FileNotFoundError:
            pass
        except NotPrivate as error:
            raise TokenProblem(
                f"{error}; run `chmod 600 {path}` if nobody else has read it, or delete it to "
                "make a new token (and give every client the new one)"
            ) from None
        except OSError as error:
            raise TokenProblem(f"cannot read {path}: {error.strerror or error}") from None
        token = new_token()
        try:
            if create_private(path, token):
                return ServerToken(token, str(path), made=True)
        except OSError as error:
            raise TokenProblem(
                f"cannot save a new token in {path}: {error.strerror or error}; set "
                f"${TOKEN_VARIABLE} instead"
            ) from None
    raise TokenProblem(f"{path} is made and removed again by another process; try again")


def _checked(token: str, source: str) -> str:
    if not TOKEN_SHAPE.fullmatch(token):
        raise TokenProblem(
            f"the token in {source} must be visible ASCII characters without spaces (it goes "
            "in an HTTP header as it is)"
        )
    return token


class BearerGuard:
    """ASGI middleware in front of the MCP endpoint: only requests with `Authorization: Bearer
    <token>` go on; every other gets 401 with `WWW-Authenticate: Bearer`, and nothing runs."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or matches(_bearer(scope), self.token):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "no token"})
        else:
            await send_refusal(send, 401, REFUSED, [("WWW-Authenticate", "Bearer")])


def _bearer(scope: Scope) -> str | None:
    """The credential of an `Authorization: Bearer ...` header (the scheme in any case)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, credential = value.decode("latin-1").strip().partition(" ")
            return credential.strip() if scheme.lower() == "bearer" else None
    return None
