"""`choices-chat --agent ag-ui --url URL [--header NAME:VALUE ...]`: what it serves with, and every
mistake ending it before it serves (exit 2, saying what is expected)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from chat_cli import exit_message, loaded_before_and_after, serve
from extras import NEEDS_AG_UI_EXTRA
from nicegui.storage import Storage

import chat_ui.__main__ as cli

URL = "http://127.0.0.1:8000/agent"


@pytest.fixture(autouse=True)
def nothing_served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NICEGUI_STORAGE_PATH", raising=False)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    monkeypatch.setattr(Storage, "path", Storage.path)  # main() sets it; restored afterwards
    monkeypatch.setattr(cli, "_claim_port", lambda host, port: port)


def test_the_agent_at_the_url_with_its_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("ag_ui", reason=NEEDS_AG_UI_EXTRA)
    from chat_ui import AGUIAgent

    headers = ["--header", "Authorization: Bearer abc:def", "--header", "X-Team:docs"]
    agent, subtitle = serve(monkeypatch, ["--agent", "ag-ui", "--url", URL, *headers])
    assert isinstance(agent, AGUIAgent)
    assert agent.url == URL
    assert agent.headers == {"Authorization": "Bearer abc:def", "X-Team": "docs"}
    assert subtitle == f"AG-UI agent: {URL}"


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--agent", "ag-ui"], "--agent ag-ui needs --url URL, the address of the agent's AG-UI"),
        (["--url", URL], "--url and --header are only used with --agent ag-ui"),
        (["--agent", "demo", "--header", "A: b"], "--url and --header are only used with --agent"),
        (
            ["--agent", "ag-ui", "--url", URL, "--header", "Authorization Bearer abc"],
            "argument --header: 'Authorization Bearer abc' is not NAME:VALUE, for example "
            "'Authorization: Bearer TOKEN'",
        ),
        (["--agent", "ag-ui", "--url", URL, "--header", "Bad Name: x"], "is not NAME:VALUE"),
        (["--agent", "ag-ui", "--url", URL, "--header", ": x"], "is not NAME:VALUE"),
    ],
)
def test_mistakes_exit_2_saying_what_is_expected(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert problem in exit_message(argv, capsys)


def test_an_address_that_is_not_http_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ag_ui", reason=NEEDS_AG_UI_EXTRA)
    message = exit_message(["--agent", "ag-ui", "--url", "localhost:8000/agent"], capsys)
    assert message.endswith(
        "choices-chat: error: --url: the AG-UI agent's address must start with http:// or "
        "https:// and name a host, got 'localhost:8000/agent'\n"
    )


def test_without_the_extra_it_says_how_to_add_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in [name for name in sys.modules if name.startswith("chat_ui._agents.agui")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "ag_ui", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "ag_ui.core", None)
    message = exit_message(["--agent", "ag-ui", "--url", URL], capsys)
    root = Path(cli.__file__).resolve().parent.parent
    assert message.startswith("choices-chat: --agent ag-ui needs the ag-ui extra (ag_ui")
    assert f"in {root}, the checkout this runs from, run " in message
    assert message.endswith(" install -e '.[ag-ui]'\n")
    assert message.count("\n") == 1, "one line, not the usage block first"


def test_importing_chat_ui_does_not_load_the_ag_ui_client() -> None:
    pytest.importorskip("ag_ui", reason=NEEDS_AG_UI_EXTRA)
    assert loaded_before_and_after("ag_ui", "AGUIAgent") == ["False", "True"]
