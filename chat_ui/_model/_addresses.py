"""Addresses as they may be shown to people: in the chat, its subtitle, errors and the terminal.

A URL given on the command line may carry credentials (`https://user:token@agents.example.com`,
`redis://:password@host`); what the person reads never does.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def without_password(url: str) -> str:
    """`url` as it may be shown: its credentials but a user name before a colon become `***`."""
    parts = urlsplit(url)
    credentials, at, address = parts.netloc.rpartition("@")
    if not at:
        return url
    user, colon, _ = credentials.partition(":")
    shown = f"{user}:***" if colon else "***"
    return urlunsplit(parts._replace(netloc=f"{shown}@{address}"))
