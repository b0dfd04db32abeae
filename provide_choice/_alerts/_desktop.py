"""Desktop alerts: a system notification through desktop-notifier (D-Bus on Linux, Notification
Center on macOS, WinRT on Windows).

It is an optional extra (`[notify]`), imported when the first alert goes. A machine without it, or
without a notification service (a server, a container, a session without D-Bus), skips the alert
with one debug line: nothing there would show it. Where D-Bus is the way (neither macOS nor
Windows) and no session bus can be found, which D-Bus clients look for in
`DBUS_SESSION_BUS_ADDRESS`, else through `DISPLAY`, the extra is not even loaded: its D-Bus client
is about 4 MB the server would then hold for nothing. The notifier stays for the process, so a click
on its notification (the default action, where the platform has one) reaches `on_click`, which
opens the question's page. A notification server that reads markup in the body (the freedesktop
`body-markup` capability) gets the body escaped, so agent text stays text.
"""

from __future__ import annotations

import asyncio
import html
import logging
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from provide_choice._alerts._push import DELIVERY_SECONDS, Alert

if TYPE_CHECKING:
    from desktop_notifier import DesktopNotifier

APPLICATION = "provide-choice"
NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"
log = logging.getLogger("provide_choice.alerts")


class DesktopAlerts:
    """Sends this process's desktop notifications; gives up for good once none can be shown."""

    def __init__(self) -> None:
        self._notifier: DesktopNotifier | None = None
        self._unavailable = False
        self._markup: bool | None = None

    async def send(self, alert: Alert, on_click: Callable[[], object] | None = None) -> None:
        """Show `alert`; `on_click` runs when the person clicks it. Never raises: a machine that
        cannot show it costs one debug line, the first time."""
        if self._unavailable:
            return
        try:
            async with asyncio.timeout(DELIVERY_SECONDS):
                await self._send(alert, on_click)
        except Exception as error:  # no extra, no bus, no service: each fails its own way
            self._unavailable = True
            log.debug(
                "desktop alerts are off for this process: %s: %s", type(error).__name__, error
            )

    async def _send(self, alert: Alert, on_click: Callable[[], object] | None) -> None:
        notifier = self._notifier or self._start()
        # Fails here, rather than inside `send` (which only logs), when nothing can show it.
        await notifier.get_capabilities()
        body = html.escape(alert.body, quote=False) if await self._reads_markup() else alert.body
        await notifier.send(alert.title, body, on_clicked=on_click)

    def _start(self) -> DesktopNotifier:
        if not _may_reach_a_session_bus():
            raise LookupError(
                "no D-Bus session bus (neither DBUS_SESSION_BUS_ADDRESS nor DISPLAY is set)"
            )
        # Deferred for start-up time: the extra loads D-Bus (or the platform's API) when used.
        from desktop_notifier import DesktopNotifier

        # Its own failures are ours to report (once, as a debug line), never its warnings.
        logging.getLogger("desktop_notifier").addHandler(logging.NullHandler())
        logging.getLogger("desktop_notifier").propagate = False
        self._notifier = DesktopNotifier(app_name=APPLICATION, app_icon=None)
        return self._notifier

    async def _reads_markup(self) -> bool:
        """Whether the notification server draws markup in bodies (freedesktop servers only)."""
        if self._markup is None:
            self._markup = sys.platform.startswith("linux") and await _server_reads_markup()
        return self._markup


def _may_reach_a_session_bus() -> bool:
    """False where notifications go through D-Bus and nothing says where its session bus is (the
    D-Bus client would fail on its own, after loading)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DBUS_SESSION_BUS_ADDRESS") or os.environ.get("DISPLAY"))


async def _server_reads_markup() -> bool:
    # Deferred for start-up time: the D-Bus client comes with the extra, for Linux only.
    from dbus_fast import Message, MessageType
    from dbus_fast.aio import MessageBus

    bus = await MessageBus().connect()
    try:
        reply = await bus.call(
            Message(
                destination=NOTIFICATIONS,
                path=NOTIFICATIONS_PATH,
                interface=NOTIFICATIONS,
                member="GetCapabilities",
            )
        )
    finally:
        bus.disconnect()
    return (
        reply is not None
        and reply.message_type == MessageType.METHOD_RETURN
        and "body-markup" in reply.body[0]
    )
