"""Push alerts: one notification to every address the person listed, through apprise.

Apprise speaks ntfy, Slack, Telegram, Discord, Matrix, e-mail, webhooks and many more, each from a
URL (`ntfy://topic`, `json://host:port/path`). It is an optional extra (`[push]`) and slow to
import, so it is imported in the worker thread that sends, when the first alert goes. Its
`notify()` blocks, so it never runs on the event loop: a thread of its own sends, and the alert
gives up waiting for it after `DELIVERY_SECONDS` (the thread, a daemon, ends with the process if
a service never answers). The addresses carry tokens: no message here ever names one beyond its
scheme.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import NamedTuple

from provide_choice._contract._settings import InteractionSettings

PUSH_VARIABLE = "PROVIDE_CHOICE_NOTIFY"
"""Push addresses from the environment, space-separated, besides the settings' `notify_urls`."""
DELIVERY_SECONDS = 10.0
"""How long an alert waits for its delivery at most: an address that does not answer fails."""
NOT_INSTALLED = "apprise is not installed (pip install 'agent-choices[push]')"


class Alert(NamedTuple):
    """What a notification says."""

    title: str
    body: str


def push_addresses(settings: InteractionSettings, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The settings' addresses, then the environment's, each once."""
    listed = (*settings.notify_urls, *environ.get(PUSH_VARIABLE, "").split())
    return tuple(dict.fromkeys(listed))


async def push(addresses: Sequence[str], alert: Alert) -> str | None:
    """Send `alert` to `addresses`; None once delivered, else why not (naming no address)."""
    loop = asyncio.get_running_loop()
    delivered: asyncio.Future[str | None] = loop.create_future()

    def settle(problem: str | None) -> None:
        if not delivered.done():
            delivered.set_result(problem)

    def work() -> None:
        try:
            problem = deliver(addresses, alert)
        except Exception as error:  # a service plug-in of apprise may fail in any way
            problem = f"apprise failed ({type(error).__name__}: {error})"
        with suppress(RuntimeError):  # the loop closed meanwhile: nobody waits for it any more
            loop.call_soon_threadsafe(settle, problem)

    threading.Thread(target=work, name="provide-choice-push", daemon=True).start()
    try:
        return await asyncio.wait_for(asyncio.shield(delivered), DELIVERY_SECONDS)
    except TimeoutError:
        return f"no answer within {DELIVERY_SECONDS:g} s"


def deliver(addresses: Sequence[str], alert: Alert) -> str | None:
    """Send `alert` through apprise, blocking; None once every address took it, else why not."""
    try:
        import apprise  # deferred for start-up time: heavy, and only needed once an alert goes
    except ImportError:
        return NOT_INSTALLED
    notifier = apprise.Apprise()
    problems = [
        f"{scheme(address)} is not an address apprise can send to"
        for address in addresses
        if not notifier.add(address)
    ]
    # A body only of spaces is sent empty: a title-only alert (apprise wants some body).
    if len(notifier) and not notifier.notify(
        body=alert.body or " ", title=alert.title, body_format=apprise.NotifyFormat.TEXT
    ):
        count = len(notifier)
        problems.append(
            "not delivered" if count == 1 else f"not delivered to every one of {count} addresses"
        )
    return "; ".join(problems) or None


def scheme(address: str) -> str:
    """How a message names an address without its secrets: its scheme ("ntfy://…")."""
    name, separator, _rest = address.partition("://")
    return f"{name[:20]}://…" if separator else "an address without a scheme"
