"""A stand-in `org.freedesktop.Notifications` service on a test's own session bus: it records every
notification it is sent (one JSON object a line, in the file given as its first argument) and
clicks one when told to on stdin (`click <id>`: the `ActionInvoked` signal with the default action,
as a notification server sends it when the person clicks the notification's body).

It says "ready" on stdout once it owns its name. It advertises the `body-markup` capability, as
GNOME's, KDE's and most servers do: a body it is sent must then be escaped markup."""

import asyncio
import json
import sys
from typing import Annotated, Any

from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusInt32, DBusSignature, DBusStr, DBusUInt32
from dbus_fast.service import ServiceInterface, method, signal

Strings = Annotated[list[str], DBusSignature("as")]
Hints = Annotated[dict[str, Any], DBusSignature("a{sv}")]

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


class Notifications(ServiceInterface):
    def __init__(self, record: str) -> None:
        super().__init__(NAME)
        self.record = record
        self.last_id = 0

    @method()
    def GetCapabilities(self) -> Strings:
        return ["actions", "body", "body-markup"]

    @method()
    def GetServerInformation(self) -> Annotated[list[str], DBusSignature("ssss")]:
        return ["stand-in", "agent-choices tests", "1.0", "1.2"]

    @method()
    def Notify(
        self,
        app_name: DBusStr,
        replaces_id: DBusUInt32,
        app_icon: DBusStr,
        summary: DBusStr,
        body: DBusStr,
        actions: Strings,
        hints: Hints,
        expire_timeout: DBusInt32,
    ) -> DBusUInt32:
        self.last_id += 1
        shown = {"id": self.last_id, "app_name": app_name, "summary": summary, "body": body}
        with open(self.record, "a", encoding="utf-8") as file:
            file.write(json.dumps(shown | {"actions": actions}) + "\n")
        return self.last_id

    @method()
    def CloseNotification(self, notification_id: DBusUInt32) -> None:
        pass

    @signal()
    def ActionInvoked(
        self, notification_id: int, action_key: str
    ) -> Annotated[list[Any], DBusSignature("us")]:
        return [notification_id, action_key]

    @signal()
    def NotificationClosed(
        self, notification_id: int, reason: int
    ) -> Annotated[list[Any], DBusSignature("uu")]:
        return [notification_id, reason]


async def main(record: str) -> None:
    bus = await MessageBus().connect()
    service = Notifications(record)
    bus.export(PATH, service)
    await bus.request_name(NAME)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command, _space, number = line.strip().partition(" ")
        if command == "click":
            service.ActionInvoked(int(number), "default")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
