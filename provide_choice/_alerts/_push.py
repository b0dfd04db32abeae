"""Push alerts: one notification to every address the person listed, through apprise.

Apprise speaks ntfy, Slack, Telegram, Discord, Matrix, e-mail, webhooks and many more, each from a
URL (`ntfy://topic`, `json://host:port/path`). It is an optional extra (`[push]`) and slow to
import, so it is imported in the worker thread that sends, when the first alert goes. Its
`notify()` blocks, so it never runs on the event loop: a thread of its own sends, and the alert
gives up waiting for it after `DELIVERY_SECONDS` (the thread, a daemon, ends with the process if
a service never answers). Each address is sent to on its own, so a failure names the address that
failed; the addresses carry passwords and tokens, so it is named as apprise itself shows it in
private (it knows which parts of each service's address are secret), each secret part as `***`
(`json://agent:***@127.0.0.1:8123/alert`). An address apprise cannot read at all is named by its
scheme alone: which of its parts are secret is unknown.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NamedTuple

from present_choices._addresses import HIDDEN
from provide_choice._contract._settings import InteractionSettings

if TYPE_CHECKING:
    from apprise import Apprise

PUSH_VARIABLE = "PROVIDE_CHOICE_NOTIFY"
"""Push addresses from the environment, space-separated, besides the settings' `notify_urls`."""
DELIVERY_SECONDS = 10.0
"""How long an alert waits for its delivery at most: an address that does not answer fails."""
NOT_INSTALLED = "apprise is not installed (pip install 'agent-choices[push]')"
_MASKED = re.compile(r"\*{2,}|\.\.\.")
"""How apprise shows a secret part of an address in private: `****`, or `1...l` (its ends)."""
_PARTS = re.compile(r"([/:@])")


class Alert(NamedTuple):
    """What a notification says."""

    title: str
    body: str


def push_addresses(settings: InteractionSettings, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The settings' addresses, then the environment's, each once."""
    listed = (*settings.notify_urls, *environ.get(PUSH_VARIABLE, "").split())
    return tuple(dict.fromkeys(listed))


async def push(addresses: Sequence[str], alert: Alert) -> str | None:
    """Send `alert` to `addresses`; None once delivered, else why not (each address that failed
    named with its secrets as `***`)."""
    loop = asyncio.get_running_loop()
    delivered: asyncio.Future[str | None] = loop.create_future()
    problems: list[str] = []
    sending: list[str] = []
    """The address being sent to now, as it may be named: the one that did not answer in time."""

    def settle(problem: str | None) -> None:
        if not delivered.done():
            delivered.set_result(problem)

    def work() -> None:
        try:
            deliver(addresses, alert, problems, sending)
        except Exception as error:  # a service plug-in of apprise may fail in any way
            problems.append(f"apprise failed ({type(error).__name__}: {error})")
        with suppress(RuntimeError):  # the loop closed meanwhile: nobody waits for it any more
            loop.call_soon_threadsafe(settle, "; ".join(problems) or None)

    threading.Thread(target=work, name="provide-choice-push", daemon=True).start()
    try:
        return await asyncio.wait_for(asyncio.shield(delivered), DELIVERY_SECONDS)
    except TimeoutError:
        silent = f"{sending[-1]} did not answer" if sending else "no answer"
        return "; ".join([*problems, f"{silent} within {DELIVERY_SECONDS:g} s"])


def deliver(
    addresses: Sequence[str], alert: Alert, problems: list[str], sending: list[str]
) -> None:
    """Send `alert` through apprise to each address in turn, blocking; add to `problems` why each
    one that failed did (`sending` names, as it may be shown, the address being sent to)."""
    try:
        import apprise  # deferred for start-up time: heavy, and only needed once an alert goes
    except ImportError:
        problems.append(NOT_INSTALLED)
        return
    for address in addresses:
        notifier = apprise.Apprise()
        if not notifier.add(address):
            problems.append(f"{scheme(address)} is not an address apprise can send to")
            continue
        shown = private_address(notifier, address)
        sending.append(shown)
        # A body only of spaces is sent empty: a title-only alert (apprise wants some body).
        if not notifier.notify(
            body=alert.body or " ", title=alert.title, body_format=apprise.NotifyFormat.TEXT
        ):
            problems.append(f"{shown} did not take it")


def private_address(notifier: Apprise, address: str) -> str:
    """The one address `notifier` holds as a message may name it: as apprise writes it in private,
    without its options, each part it hides written `***`."""
    private: str = next(iter(notifier)).url(privacy=True)  # type: ignore[no-untyped-call]
    base = private.partition("?")[0].rstrip("/")
    name, separator, rest = base.partition("://")
    if not separator:
        return scheme(address)
    parts = _PARTS.split(rest)
    return f"{name}://" + "".join(HIDDEN if _MASKED.search(part) else part for part in parts)


def scheme(address: str) -> str:
    """How a message names an address without its secrets: its scheme ("ntfy://…")."""
    name, separator, _rest = address.partition("://")
    return f"{name[:20]}://…" if separator else "an address without a scheme"
