"""Installed, the plug-in is loaded by every `provide-choice serve`, `ask` and `inbox`, set up or
not: loading it costs nothing it does not need then (httpx loads once the bot first talks to
Telegram)."""

from __future__ import annotations

import subprocess
import sys


def test_loading_the_plug_in_loads_no_http_client() -> None:
    probe = (
        "import sys; import provide_choice.transports; before = 'httpx' in sys.modules; "
        "from provide_choice._transports._plug_ins import load_plugins; load_plugins(); "
        "import provide_choice.telegram; print(before, 'httpx' in sys.modules)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    before, after = shown.stdout.split()
    assert after == before, "loading the Telegram plug-in imported httpx"
