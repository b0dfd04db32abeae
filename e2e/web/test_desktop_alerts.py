"""The desktop alert over a real D-Bus session bus: `provide-choice serve` (over stdio, as a
client starts it) sends "Question waiting" with the title as its body to the stand-in
`org.freedesktop.Notifications` service when a question waits on its page; a click on it opens
the page; agent markup arrives escaped (the service reads markup), so it shows as text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alert_environment import environment
from extras import NEEDS_NOTIFY_EXTRA
from mcp import Client, StdioServerParameters
from mcp_servers import call_on_page, until
from provide_choice_harness import COMMAND
from session_bus import NotificationService, session_bus

pytest.importorskip("desktop_notifier", reason=NEEDS_NOTIFY_EXTRA)

QUESTION = {
    "prompt": "Which one should I use?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[tuple[str, NotificationService]]:
    with session_bus(tmp_path) as running:
        yield running


def server(home: Path, bus_address: str, opened: Path) -> StdioServerParameters:
    """The server with the test's bus, and a "browser" that notes the addresses it is given."""
    browser = home / "browser"
    home.mkdir(exist_ok=True)
    browser.write_text(f'#!/bin/sh\necho "$1" >> {opened}\n')
    browser.chmod(0o755)
    variables = environment(home, DBUS_SESSION_BUS_ADDRESS=bus_address, BROWSER=str(browser))
    return StdioServerParameters(command=COMMAND, args=["serve", "--no-browser"], env=variables)


async def test_a_question_on_its_page_is_a_desktop_notification_that_opens_it(
    tmp_path: Path, bus: tuple[str, NotificationService]
) -> None:
    address, service = bus
    opened = tmp_path / "opened"
    async with Client(server(tmp_path / "home", address, opened)) as client:
        call, page = await call_on_page(client, QUESTION | {"title": "<b>Database</b> & *co*"})
        await until(lambda: len(service.shown()) == 1, "the notification was sent")
        (shown,) = service.shown()
        assert shown["app_name"] == "provide-choice"
        assert shown["summary"] == "Question waiting"
        assert shown["body"] == "&lt;b&gt;Database&lt;/b&gt; &amp; *co*"
        assert "default" in shown["actions"], "a click on it reaches the server"
        service.click(shown["id"])
        await until(opened.exists, "the click opened the page")
        await until(lambda: opened.read_text().split() == [page], "the page was opened once")
        call.cancel()
