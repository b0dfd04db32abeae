"""Installed, the plug-in is loaded by every `provide-choice serve`, `ask` and `inbox`, set up or
not: loading it costs nothing it does not need then (httpx and websockets load once the app first
talks to Slack)."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_plug_in_loads_no_http_or_websocket_client() -> None:
    probe = (
        "import sys; import provide_choice.transports; "
        "before = [name in sys.modules for name in ('httpx', 'websockets')]; "
        "from provide_choice._transports._plug_ins import load_plugins; load_plugins(); "
        "import provide_choice.slack; "
        "print(before == [name in sys.modules for name in ('httpx', 'websockets')])"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert shown.stdout.strip() == "True", "loading the Slack plug-in imported httpx or websockets"
