"""Addresses as they may be shown to people: in a chat, its subtitle, errors, a terminal, a log.

A URL given on a command line may carry credentials (`https://user:token@agents.example.com`,
`redis://:password@host`); what the person reads never does. The chat (its agents' and models'
addresses, its Redis) and the MCP server (its Redis) hide them the same way, here.
"""

from __future__ import annotations

HIDDEN = "***"


def without_password(url: str) -> str:
    """`url` as it may be shown: its credentials become `***`, but a user name before a colon
    stays (`redis://alice:***@host`, `redis://:***@host`; a token alone, `rediss://***@host`).
    Everything after the host stays as it is; a URL without credentials comes back unchanged, and
    so does text that is no URL (nothing here raises)."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return url
    ends = [index for index in (rest.find(mark) for mark in "/?#") if index >= 0]
    authority_end = min(ends, default=len(rest))
    credentials, at, host = rest[:authority_end].rpartition("@")
    if not at:
        return url
    user, colon, _password = credentials.partition(":")
    shown = f"{user}:{HIDDEN}" if colon else HIDDEN
    return f"{scheme}://{shown}@{host}{rest[authority_end:]}"
