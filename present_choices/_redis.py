"""One way to reach Redis for the whole distribution: the chat's conversations (`choices-chat
--redis`) and the questions several MCP servers share (`provide-choice serve --http --redis`).

A store that is away must fail fast, and a server restarted must not cost a failed request: every
client connects and answers within `TIMEOUT` seconds, and tries a command once more on a fresh
connection (a pooled one may have died with the server it was connected to). redis-py is an
optional extra (`[redis]`), so it is imported when a client is made, never when this module is:
importing it costs nothing to a program that never reaches Redis. What a person reads of a Redis
URL is `_addresses.without_password`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis

TIMEOUT = 3.0
"""Seconds for connecting and for each command: a store that is away fails fast."""
RETRIES = 1
"""How many times a command is tried again, on a fresh connection, after the first try failed."""
NOT_INSTALLED = "the redis extra is not installed: pip install 'agent-choices[redis]'"


def connect(url: str, *, retries: int = RETRIES, **options: Any) -> Redis:
    """An asyncio client for the Redis at `url` (`redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`,
    `rediss://` for TLS, `unix://PATH`) that fails within `TIMEOUT` when the server is away and
    tries a failed command `retries` more times on a fresh connection (0: fail at the first
    error, as a check that the server answers does). `options` go to redis-py as they are and
    win over these (`decode_responses=True`; `socket_timeout=None` for a listener that waits for
    messages). Nothing is sent before the first command. Raises `ValueError` for a URL that is
    not a Redis one, `ImportError` (saying what to install) without the extra."""
    try:
        # Deferred: the extra is optional, and only a program that reaches Redis needs it.
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
    except ImportError as missing:
        raise ImportError(NOT_INSTALLED) from missing
    settings: dict[str, Any] = {
        "socket_connect_timeout": TIMEOUT,
        "socket_timeout": TIMEOUT,
        "retry": Retry(NoBackoff(), retries),
        **options,
    }
    return Redis.from_url(url, **settings)
