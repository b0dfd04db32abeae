"""`provide-choice ask --transport NAME` asks on a transport set up here other than this terminal
(a plug-in's: telegram), needing no terminal, recorded like any question; a name that is no
transport, or one not set up here (Telegram, not linked), exits 2 saying why."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from provide_choice.__main__ import main
from provide_choice._history._store import history_path
from provide_choice.transports import RecommendedTransport, register_transport

VALID = {
    "title": "Database",
    "prompt": "Which database?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


@pytest.fixture
def recommended() -> Iterator[None]:
    unregister = register_transport(RecommendedTransport)
    yield
    unregister()


def test_ask_on_another_transport_needs_no_terminal(
    recommended: None, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", "--transport", "recommended", "--json", json.dumps(VALID)]) == 0
    response = json.loads(capsys.readouterr().out)
    assert response["selection"]["transport"] == "recommended"
    assert response["selection"]["selected_ids"] == ["pg"]
    assert history_path().exists()


def test_a_name_that_is_no_transport_exits_2_naming_the_transports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "--transport", "carrier-pigeon", "--json", json.dumps(VALID)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(
        "provide-choice ask: --transport carrier-pigeon is not a transport here; transports: "
        "terminal, web, elicitation, app, slack, telegram"
    )


def test_a_transport_not_set_up_here_exits_2_saying_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ask", "--transport", "telegram", "--json", json.dumps(VALID)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("provide-choice ask: cannot ask on telegram: ")
