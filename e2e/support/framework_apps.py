"""The Gradio and Streamlit examples, started as the documentation writes them, for the browser
tests.

The command is read from the documentation's own line (only the port is swapped for a free one), run from
the checkout like a reader would, with nothing sent out: Gradio's analytics and Streamlit's usage
statistics off.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from documented import command_line
from ports import ATTEMPTS, ExitedEarly, free_port, lost_port

ROOT = Path(__file__).resolve().parents[2]
GRADIO_COMMAND = ".venv/bin/python examples/gradio_chat.py"
STREAMLIT_COMMAND = ".venv/bin/streamlit run examples/streamlit_chat.py"
FRAMEWORKS = ["gradio", "streamlit"]
OPTION_BUTTONS = {"gradio": "button.option", "streamlit": "[class*='-block'] button"}
"""Where each framework draws a block's option buttons (Gradio: under the last message)."""
OFFLINE = {"GRADIO_ANALYTICS_ENABLED": "False", "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}


def _on_port(words: list[str], port: int) -> list[str]:
    """`words` with the value of their port option set to `port`, and the programs of this venv."""
    option = "--port" if "--port" in words else "--server.port"
    words = list(words)
    words[words.index(option) + 1] = str(port)
    name = Path(words[0]).name  # the checkout's .venv/bin/NAME: this venv's
    words[0] = sys.executable if name == "python" else str(Path(sys.executable).with_name(name))
    return words


@contextmanager
def example_server(
    start: str, workdir: Path, environment: dict[str, str] | None = None
) -> Iterator[str]:
    """Run the documented command starting with `start` on a free port, and yield its address once it
    serves (`environment` adds variables: the agent's)."""
    variables = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    variables |= OFFLINE | (environment or {})
    health = "_stcore/health" if start == STREAMLIT_COMMAND else ""
    log_path = workdir / "server.log"
    for attempt in range(1, ATTEMPTS + 1):
        port = free_port()
        with log_path.open("w") as log:
            server = subprocess.Popen(
                _on_port(command_line(start), port),
                cwd=ROOT,
                env=variables,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        try:
            _wait_until_serving(url + health, server, log_path)
        except ExitedEarly:
            if attempt < ATTEMPTS and lost_port(log_path.read_text()):
                continue
            raise
        except BaseException:
            _stop(server)
            raise
        break
    try:
        yield url
    finally:
        _stop(server)


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ExitedEarly(f"{server.args} exited early:\n{log_path.read_text()}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within 60 s:\n{log_path.read_text()}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
