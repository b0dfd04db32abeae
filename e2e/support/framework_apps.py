"""The Gradio and Streamlit examples, started as the README writes them, for the browser tests.

The command is read from the README's own line (only the port is swapped for a free one), run from
the checkout like a reader would, with nothing sent out: Gradio's analytics and Streamlit's usage
statistics off.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ports import ATTEMPTS, ExitedEarly, free_port, lost_port

ROOT = Path(__file__).resolve().parents[2]
GRADIO_COMMAND = "python examples/gradio_chat.py"
STREAMLIT_COMMAND = "streamlit run examples/streamlit_chat.py"
FRAMEWORKS = ["gradio", "streamlit"]
OPTION_BUTTONS = {"gradio": "button.option", "streamlit": "[class*='-block'] button"}
"""Where each framework draws a block's option buttons (Gradio: under the last message)."""
OFFLINE = {"GRADIO_ANALYTICS_ENABLED": "False", "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}


def readme_command(start: str) -> list[str]:
    """The words of the README's command line that starts with `start`."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.splitlines() if line.startswith(start)]
    assert lines, f"the README shows no command starting with {start!r}"
    return shlex.split(lines[0], comments=True)


def _on_port(words: list[str], port: int) -> list[str]:
    """`words` with the value of their port option set to `port`, and the programs of this venv."""
    option = "--port" if "--port" in words else "--server.port"
    words = list(words)
    words[words.index(option) + 1] = str(port)
    program = Path(sys.executable).with_name(words[0])
    words[0] = sys.executable if words[0] == "python" else str(program)
    return words


@contextmanager
def example_server(
    start: str, workdir: Path, environment: dict[str, str] | None = None
) -> Iterator[str]:
    """Run the README's command starting with `start` on a free port, and yield its address once it
    serves (`environment` adds variables: the agent's)."""
    variables = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    variables |= OFFLINE | (environment or {})
    health = "_stcore/health" if start == STREAMLIT_COMMAND else ""
    log_path = workdir / "server.log"
    for attempt in range(1, ATTEMPTS + 1):
        port = free_port()
        with log_path.open("w") as log:
            server = subprocess.Popen(
                _on_port(readme_command(start), port),
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
