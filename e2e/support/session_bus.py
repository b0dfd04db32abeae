"""A D-Bus session bus of the test's own (`dbus-daemon --session`) with the stand-in notification
service on it (notification_service.py), never the machine's. The daemon is `$DBUS_DAEMON_PATH`,
else `dbus-daemon` on the PATH (`make test` installs Debian's dbus where missing, see
scripts/find-dbus-daemon); a test that needs one and finds none is skipped, saying so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

NEEDS_DBUS = (
    "needs dbus-daemon (Debian's dbus package; `make test` installs it), or DBUS_DAEMON_PATH "
    "set to one"
)
SERVICE = Path(__file__).with_name("notification_service.py")


def dbus_daemon_path() -> str | None:
    configured = os.environ.get("DBUS_DAEMON_PATH")
    if configured and os.access(configured, os.X_OK):
        return configured
    return shutil.which("dbus-daemon")


class NotificationService:
    """The stand-in service: what it was sent (`shown()`), and a click on one (`click`)."""

    def __init__(self, process: subprocess.Popen[str], record: Path) -> None:
        self.process = process
        self.record = record

    def shown(self) -> list[dict[str, Any]]:
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines()]

    def click(self, notification_id: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"click {notification_id}\n")
        self.process.stdin.flush()


@contextmanager
def session_bus(directory: Path) -> Iterator[tuple[str, NotificationService]]:
    """The bus's address, and the notification service on it."""
    daemon = dbus_daemon_path()
    if daemon is None:
        pytest.skip(NEEDS_DBUS)
    bus = subprocess.Popen(
        [
            daemon,
            "--session",
            "--nofork",
            "--print-address=1",
            f"--address=unix:path={directory}/bus",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert bus.stdout is not None
    address = bus.stdout.readline().strip()
    service = subprocess.Popen(
        [sys.executable, str(SERVICE), str(directory / "notifications.jsonl")],
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": address},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert service.stdout is not None
        assert service.stdout.readline().strip() == "ready", (
            "the notification service did not start"
        )
        yield address, NotificationService(service, directory / "notifications.jsonl")
    finally:
        service.kill()
        bus.kill()
        service.wait(10)
        bus.wait(10)
