"""The command an agent runs so that the person answers in a terminal it opens, and where on the
bridge that terminal finds its question.

Shared by the transport (which gives the command out), its routes (served under `ROUTE_PREFIX`) and
`choice-terminal` itself (which reaches them), and light on purpose: `choice-terminal` imports it
before it knows whether it will do more than print its `--help`.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

CLIENT_COMMAND = "choice-terminal"
ROUTE_PREFIX = "/terminal"


def client_command(session_id: str, base_url: str) -> str:
    """`choice-terminal --session <id> --url <bridge url>`, with the script's full path when the
    name alone would not find this installation's script (a virtual environment not on PATH)."""
    installed = Path(sys.executable).parent / CLIENT_COMMAND
    on_path = shutil.which(CLIENT_COMMAND)
    program = CLIENT_COMMAND
    if installed.exists() and (on_path is None or not Path(on_path).samefile(installed)):
        program = shlex.quote(str(installed))
    return f"{program} --session {shlex.quote(session_id)} --url {shlex.quote(base_url)}"
