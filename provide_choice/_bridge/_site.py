"""Which addresses a server of this package answers to, and the guard that refuses every other.

A server on 127.0.0.1 answers to its own address only. One reached from elsewhere (`serve --http
PORT --host ADDR --public-url URL`, behind the person's TLS proxy) answers to the public URL's host
too, and gives every address under it (`<public-url>/choice/<id>`). Any web page the person visits
can send requests to either, so `HostGuard` checks every request before a route sees it: a foreign
`Host` is a DNS-rebinding attempt (403); a WebSocket, or a state-changing request, from a foreign
`Origin` is a cross-site request (403); and where the routes take JSON, a state-changing request
without a JSON body is refused (415), which keeps plain HTML forms out (they cannot send JSON without
a CORS preflight). Nothing here imports a web framework.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

HOST = "127.0.0.1"
STATE_CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class Site:
    """The `Host` headers and the origins a server answers to."""

    hosts: frozenset[str]
    """`host:port` as a browser sends it (lower case; no port where the scheme's default is meant)."""
    origins: frozenset[str]

    def __or__(self, other: Site) -> Site:
        return Site(self.hosts | other.hosts, self.origins | other.origins)


def loopback_site(port: int) -> Site:
    """A server on 127.0.0.1:`port`, reached as 127.0.0.1 or localhost."""
    hosts = frozenset({f"{HOST}:{port}", f"localhost:{port}"})
    return Site(hosts, frozenset(f"http://{host}" for host in hosts))


@dataclass(frozen=True)
class PublicUrl:
    """Where people and agents reach a server from elsewhere: `https://choices.example.com`, maybe
    with a path its proxy strips (`https://example.com/choices`). Every address the server gives
    (pages, hand-offs, the MCP endpoint) is under it."""

    scheme: str
    host: str
    """The host as written in a URL (an IPv6 address in brackets), lower case."""
    port: int
    path: str
    """Empty, or a path without a trailing slash (`/choices`)."""

    @property
    def base(self) -> str:
        """`scheme://host[:port][/path]`, the port only where it is not the scheme's default."""
        return f"{self.scheme}://{self._netloc(default_port=False)}{self.path}"

    @property
    def loopback(self) -> bool:
        """Whether only this machine reaches it."""
        return is_loopback(self.host.strip("[]"))

    def site(self) -> Site:
        """The Host headers a browser or client sends to it (with and without a default port),
        and its origin, as a browser writes it (never with a default port)."""
        netlocs = {self._netloc(default_port=True), self._netloc(default_port=False)}
        return Site(frozenset(netlocs), frozenset({f"{self.scheme}://{self._netloc(False)}"}))

    def _netloc(self, default_port: bool) -> str:
        if not default_port and self.port == DEFAULT_PORTS[self.scheme]:
            return self.host
        return f"{self.host}:{self.port}"


def parse_public_url(text: str) -> PublicUrl:
    """`text` as a public URL. Raises `ValueError` saying what is wrong and what is allowed."""
    allowed = "an http:// or https:// address such as https://choices.example.com"
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise ValueError(f"must be {allowed}, got {text[:100]!r} ({error})") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"must be {allowed}, got {text[:100]!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not carry a user name or password: people open its addresses")
    if parts.query or parts.fragment:
        raise ValueError(f"must have no query (?) or fragment (#), got {text[:100]!r}")
    host = parts.netloc.rpartition("@")[2].lower()
    host = host if port is None else host.rsplit(":", 1)[0]
    return PublicUrl(
        parts.scheme,
        host,
        DEFAULT_PORTS[parts.scheme] if port is None else port,
        parts.path.rstrip("/"),
    )


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 without brackets) is this machine alone."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HostGuard:
    """ASGI middleware: every request must name one of `site()`'s hosts; WebSockets, and
    state-changing requests, must come from one of its origins (or, but for WebSockets, none); with
    `json_bodies`, a state-changing request must carry JSON. `name` is how refusals call the
    server ("bridge", "inbox", "server")."""

    def __init__(
        self,
        app: ASGIApp,
        site: Callable[[], Site],
        name: str = "bridge",
        json_bodies: bool = True,
    ) -> None:
        self.app = app
        self.site = site
        self.name = name
        self.json_bodies = json_bodies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Closing before accepting makes the server answer the handshake with 403.
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[1]})
        else:
            await send_refusal(send, *refusal)

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = _headers(scope)
        site = self.site()
        if headers.get("host", "").lower() not in site.hosts:
            return 403, f"the Host header must be this {self.name}'s own address, " + " or ".join(
                sorted(site.hosts)
            )
        origin = headers.get("origin")
        if scope["type"] == "websocket":
            if origin is None or origin.lower() not in site.origins:
                return 403, f"a WebSocket must come from a page of this {self.name}"
            return None
        if scope["method"] not in STATE_CHANGING_METHODS:
            return None
        if origin is not None and origin.lower() not in site.origins:
            return 403, "requests from other origins are refused"
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if self.json_bodies and media_type != "application/json":
            return 415, "the body must be JSON (Content-Type: application/json)"
        return None


def _headers(scope: Scope) -> dict[str, str]:
    return {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}


async def send_refusal(
    send: Send, status: int, problem: str, headers: Iterable[tuple[str, str]] = ()
) -> None:
    """The project's one refusal shape, `{"problems": [problem]}`, sent from ASGI middleware
    (before any web framework is loaded)."""
    body = json.dumps({"problems": [problem]}).encode()
    raw_headers: list[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers),
    ]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": body})
