"""`choices-chat --redis` as a person starts it, in a real process: each mistake ends it before it
serves, with exit status 2 and one line, within seconds, never showing a password."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ports import free_port
from redis_chat import SECRET

TIME_LIMIT = 10.0  # seconds


def run_chat(arguments: list[str], variables: dict[str, str], home: Path) -> tuple[int, str, float]:
    """Exit status, stderr and seconds taken by `choices-chat ARGUMENTS` (with no browser)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
    for name in ("NICEGUI_REDIS_URL", "CHOICES_CHAT_STORAGE_SECRET", "NICEGUI_STORAGE_PATH"):
        environment.pop(name, None)
    environment |= {"AGENT_CHOICES_HOME": str(home), **variables}
    command = shutil.which("choices-chat", path=str(Path(sys.executable).parent))
    assert command is not None
    start = time.monotonic()
    result = subprocess.run(
        [command, *arguments, "--port", "0", "--no-show"],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        check=False,
    )
    return result.returncode, result.stderr, time.monotonic() - start


def test_redis_without_the_shared_secret_exits_2_saying_what_to_set(tmp_path: Path) -> None:
    status, stderr, _ = run_chat(["--redis", "redis://127.0.0.1:6379/0"], {}, tmp_path)
    assert status == 2
    assert stderr.count("\n") == 1, stderr
    assert "--redis needs $CHOICES_CHAT_STORAGE_SECRET" in stderr


@pytest.mark.parametrize("given", ["flag", "variable"])
def test_an_unreachable_redis_exits_2_within_10_seconds_naming_it_without_its_password(
    given: str, tmp_path: Path
) -> None:
    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    variables = {"CHOICES_CHAT_STORAGE_SECRET": SECRET}
    arguments = ["--redis", url] if given == "flag" else []
    if given == "variable":
        variables["NICEGUI_REDIS_URL"] = url  # NiceGUI's own variable: the default for --redis
    status, stderr, seconds = run_chat(arguments, variables, tmp_path)
    assert status == 2
    assert seconds < TIME_LIMIT
    # (With the variable, NiceGUI's own storage says first that it could not load from there.)
    (line,) = [line for line in stderr.splitlines() if line.startswith("choices-chat:")]
    assert line.startswith(f"choices-chat: cannot reach Redis at {url.replace('hunter2', '***')}: ")
    assert "Connect" in line or "refused" in line, line
    assert "Traceback" not in stderr
    assert "hunter2" not in stderr
