"""`provide_choice` loads on first use (issue 38): importing it loads none of the heavy parts, the
console scripts' `--help` loads nothing of a server, and the hand-off's terminal loads nothing of
one while it runs. Each rule runs in a fresh Python (or the installed command), which says what it
has loaded."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(sys.executable).parent

NOT_ON_IMPORT = ["pydantic", "mcp", "markdown_it", "fastapi", "starlette", "httpx", "sqlite3"]
"""What `import provide_choice` does without: a program importing it may never validate a request,
serve MCP, render markdown, serve a page, talk HTTP or open the history."""
NOT_FOR_HELP = ["mcp", "fastapi", "starlette", "nicegui", "pydantic_ai", "uvicorn"]
"""What printing a command's help does without: a server of any kind."""
NOT_IN_THE_HANDOFF = ["mcp", "mcp_types", "fastapi", "uvicorn", "httpx"]
"""What the hand-off's terminal does without while it runs: it is a client of the server, and a
few JSON posts need no HTTP client library (the standard library's `urllib` makes them)."""
SERVER_SIDE = [
    "provide_choice._transports._registry",
    "provide_choice._transports._web",
    "provide_choice._transports._app",
    "provide_choice._transports._elicitation",
    "provide_choice._transports._terminal",
    "provide_choice._question._pending",
    "provide_choice._question._registry",
    "provide_choice._question._store",
    "provide_choice._alerts._scheduler",
    "provide_choice._alerts._mirrors",
    "provide_choice._history._store",
    "provide_choice._bridge",
]
"""The server's parts: its transports, the questions it holds, the alerts that follow them, the
history's store and the bridge."""


def environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}


def loaded_after(code: str, among: list[str], env: dict[str, str] | None = None) -> list[str]:
    """Which of `among` a fresh Python has loaded once it has run `code` (in `env`, else this
    process's environment)."""
    listing = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", listing],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment() if env is None else env,
        check=True,
    )
    modules = json.loads(result.stdout.splitlines()[-1])
    return [name for name in among if name in modules]


def imported_by(command: list[str]) -> set[str]:
    """Every module the command imports, read from `PYTHONPROFILEIMPORTTIME`'s report on stderr."""
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=60,
        env=environment() | {"PYTHONPROFILEIMPORTTIME": "1"},
        check=True,
    )
    found = re.findall(r"^import time:\s+\d+ \|\s+\d+ \| +(\S+)$", result.stderr, re.MULTILINE)
    assert found, f"no import report on stderr: {result.stderr[:500]}"
    return set(found)


def test_importing_provide_choice_loads_nothing_heavy() -> None:
    assert loaded_after("import provide_choice", NOT_ON_IMPORT) == []


def test_every_public_name_still_loads_when_used() -> None:
    code = (
        "import provide_choice\nfor name in provide_choice.__all__: getattr(provide_choice, name)"
    )
    assert loaded_after(code, ["pydantic", "mcp"]) == ["pydantic", "mcp"]


def test_importing_present_choices_loads_neither_pydantic_nor_markdown_it() -> None:
    """Every module of the three packages imports it (its translation, its command line)."""
    assert loaded_after("import present_choices", ["pydantic", "markdown_it"]) == []


def test_regression_a_request_checked_first_thing_knows_every_built_in_transport() -> None:
    # The built-in transports registered as a side effect of importing the package; loaded on
    # first use, the table of transport names was empty where nothing had imported them yet,
    # and the hand-off's terminal refused every request naming one.
    code = (
        "import json\n"
        "from provide_choice import parse_request\n"
        "from provide_choice._contract._transport_table import transport_names\n"
        "request = parse_request({'title': 'T', 'prompt': 'P', 'selection_mode': 'single', "
        "'transport': 'web', 'options': [{'id': 'a', 'label': 'A', 'recommended': True}, "
        "{'id': 'b', 'label': 'B'}]})\n"
        "print(json.dumps([request.transport, transport_names()]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(),
        check=True,
    )
    transport, names = json.loads(result.stdout)
    assert transport == "web"
    assert names[:5] == ["terminal", "terminal_handoff", "web", "elicitation", "app"]


@pytest.mark.parametrize("script", ["provide-choice", "choice-terminal"])
def test_a_console_scripts_help_loads_no_server(script: str) -> None:
    loaded = imported_by([str(SCRIPTS / script), "--help"])
    assert [name for name in NOT_FOR_HELP if name in loaded] == []


def test_provide_choice_help_loads_neither_pydantic_nor_the_transports() -> None:
    """What keeps it within a few times a bare Python's start (`bench/startup.py`)."""
    loaded = imported_by([str(SCRIPTS / "provide-choice"), "--help"])
    assert "pydantic" not in loaded
    assert not any(name.startswith("provide_choice._transports") for name in loaded)


def test_the_handoff_terminal_loads_no_server_side_for_its_session() -> None:
    """Everything `choice-terminal` runs a session with: the plug-ins, the session over the
    bridge, every module of the terminal's view (its flows, the alert it writes), and the request
    and settings it reads (which know every transport)."""
    code = (
        "import pkgutil\n"
        "import provide_choice._commands._choice_terminal\n"
        "from provide_choice._transports._plug_ins import load_plugins\n"
        "load_plugins()\n"
        "import provide_choice._transports._terminal_handoff._remote\n"
        "import provide_choice._transports._terminal_view as view\n"
        "for module in pkgutil.iter_modules(view.__path__, view.__name__ + '.'):\n"
        "    __import__(module.name)\n"
        "from provide_choice._contract._settings import InteractionSettings\n"
        "InteractionSettings.model_validate({'transport': 'web'})"
    )
    assert loaded_after(code, NOT_IN_THE_HANDOFF + SERVER_SIDE) == []


def test_the_handoff_terminal_reads_the_transports_table_without_loading_a_transport() -> None:
    """Its settings know every transport by its kind (`_transports._kinds`, the plug-ins'): the
    server's transports, the question layer and its alerts stay unloaded (they took about a
    tenth of its start: 35-45 ms)."""
    code = (
        "from provide_choice._transports._plug_ins import load_plugins\n"
        "load_plugins()\n"
        "import provide_choice._transports._terminal_handoff._remote\n"
        "from provide_choice._contract._transport_table import transport_names\n"
        "from provide_choice._contract._settings import InteractionSettings\n"
        "InteractionSettings.model_validate({'transport': 'telegram', 'alerts': {'slack': False}})\n"
        "assert transport_names()[:5] == ('terminal', 'terminal_handoff', 'web', 'elicitation', 'app')"
    )
    assert loaded_after(code, SERVER_SIDE) == []


def test_a_server_without_slack_or_telegram_set_up_loads_none_of_their_talking_parts(
    tmp_path: Path,
) -> None:
    """Their plug-ins register (their names, labels and Telegram's `link` command) and are asked
    to build, as at every server's start; without tokens they build nothing, and what would talk
    to them waits until one is set up."""
    code = (
        "from provide_choice._question import QuestionRegistry\n"
        "from provide_choice._transports._base import TransportSetup\n"
        "from provide_choice._transports._plug_ins import load_plugins\n"
        "from provide_choice._transports._registry import build_transports\n"
        "load_plugins()\n"
        "built = build_transports(TransportSetup(QuestionRegistry()))\n"
        "assert 'slack' not in built and 'telegram' not in built, sorted(built)"
    )
    talking = [
        "provide_choice.slack._transport",
        "provide_choice.telegram._transport",
        "provide_choice.slack._channel",
        "provide_choice.slack._socket_mode",
        "provide_choice.slack._conversation",
        "provide_choice.telegram._chat",
        "provide_choice.telegram._updates",
        "provide_choice.telegram._conversation",
    ]
    unset = {
        key: value
        for key, value in environment().items()
        if not key.startswith(("PROVIDE_CHOICE_SLACK_", "PROVIDE_CHOICE_TELEGRAM_"))
    }
    loaded = loaded_after(code, talking, unset | {"AGENT_CHOICES_HOME": str(tmp_path)})
    assert loaded == talking[:2]


DESKTOP_ALERT_TWICE = """
import asyncio, json, logging, sys
logging.basicConfig(level=logging.DEBUG, format="%(message)s")
from provide_choice._alerts._desktop import DesktopAlerts
from provide_choice._alerts._push import Alert
alerts = DesktopAlerts()
for _ in range(2):
    asyncio.run(alerts.send(Alert("Question waiting", "Database")))
print(json.dumps([name for name in ("desktop_notifier", "dbus_fast") if name in sys.modules]))
"""


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="notifications go through D-Bus")
@pytest.mark.parametrize(
    ("named", "loaded", "said"),
    [
        ({}, [], "no D-Bus session bus (neither DBUS_SESSION_BUS_ADDRESS nor DISPLAY is set)"),
        (
            {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"},
            ["desktop_notifier", "dbus_fast"],
            "FileNotFoundError",
        ),
    ],
    ids=["no bus named", "a bus named"],
)
def test_a_desktop_alert_loads_no_d_bus_client_where_no_session_bus_is_named(
    named: dict[str, str], loaded: list[str], said: str
) -> None:
    """Where neither `DBUS_SESSION_BUS_ADDRESS` nor `DISPLAY` says where the session bus is, the
    desktop alert is off without loading the extra (its D-Bus client would fail there anyway);
    where one is named, it is tried (here nothing listens there). Either way: one debug line, the
    second alert not tried."""
    pytest.importorskip("desktop_notifier", reason="the notify extra is not installed")
    unset = {
        key: value
        for key, value in environment().items()
        if key not in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY")
    }
    result = subprocess.run(
        [sys.executable, "-c", DESKTOP_ALERT_TWICE],
        capture_output=True,
        text=True,
        timeout=60,
        env=unset | named,
        check=True,
    )
    assert json.loads(result.stdout) == loaded
    (line,) = [line for line in result.stderr.splitlines() if "desktop alerts are off" in line]
    assert said in line
