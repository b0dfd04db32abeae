"""A transport adds a command of its own to `provide-choice`, named as it (`provide-choice
telegram link`): listed in `--help`, with its own `--help`, run with what was parsed."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from provide_choice.__main__ import main
from provide_choice.transports import (
    Caller,
    PendingQuestion,
    TransportCommand,
    TransportKind,
    TransportSetup,
    register_transport,
)


def _arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)
    ping = actions.add_parser("ping", help="say pong")
    ping.add_argument("--times", type=int, default=1)


def _run(arguments: argparse.Namespace) -> int:
    print("pong " * arguments.times)
    return 3


class Pinging:
    kind = TransportKind("pinging", "Pinging")
    cancelled_with_the_call = True
    bounded_wait = True
    command = TransportCommand("talk to the pinging service", _arguments, _run)

    @classmethod
    def build(cls, setup: TransportSetup) -> None:
        return None

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        return None


@pytest.fixture
def pinging() -> Iterator[None]:
    unregister = register_transport(Pinging)
    yield
    unregister()


def test_a_transports_command_runs_with_what_was_parsed(
    pinging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pinging", "ping", "--times", "2"]) == 3
    assert capsys.readouterr().out == "pong pong \n"


def test_it_is_listed_and_has_its_own_help(
    pinging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "pinging" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["pinging", "--help"])
    out = capsys.readouterr().out
    assert "talk to the pinging service" in out
    assert "ping" in out


def test_without_the_transport_there_is_no_such_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["pinging", "ping"])
    assert exited.value.code == 2
    assert "invalid choice: 'pinging'" in capsys.readouterr().err
