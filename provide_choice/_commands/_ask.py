"""`provide-choice ask`: one question from a shell script, read from a file or `--json`, asked in
this terminal, or on another transport set up here (`--transport telegram`), or answered at once
(the answers file, unattended, away); stdout carries only the response JSON, the exit status says
whether it was answered."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from provide_choice._commands._command_line import ANSWERED, NOT_ANSWERED
from provide_choice._commands._running import CommandError, policy, settings, words


def run_ask(arguments: argparse.Namespace) -> int:
    """Read the request, refuse a batch or a bad one (saying every problem), answer it at once
    when nobody is to be asked, else ask it in this terminal; print the response JSON."""
    # Deferred for start-up time: the request's model and the terminal UI, used from here on.
    from present_choices import ChoicesError
    from provide_choice._contract._answers_file import RuleMisfit
    from provide_choice._contract._batch import is_batch
    from provide_choice._contract._request import parse_request
    from provide_choice._contract._transport_table import AUTO, wish_names
    from provide_choice._question import TransportError
    from provide_choice._server._ask import answer_at_once, ask_person

    transport = arguments.transport
    if transport is not None and transport not in wish_names():
        raise CommandError(
            words().gettext(
                "--transport {name} is not a transport here; transports: {names}",
                name=transport,
                names=", ".join(wish_names()),
            )
        )
    answering = policy("provide-choice ask", arguments)
    data = _read_json(arguments.request_file, arguments.request_json)
    if isinstance(data, dict) and is_batch(data):
        raise CommandError(
            words().gettext(
                "asks one question at a time, and this request holds a batch (questions). Ask a "
                "batch through the MCP tool (`provide-choice serve`), or ask its questions one "
                "by one."
            )
        )
    try:
        request = parse_request(data)
    except ChoicesError as error:
        lines = "".join(f"\n  - {problem}" for problem in error.problems)
        raise CommandError(
            words().ngettext(
                "invalid request ({count} problem):{problems}",
                "invalid request ({count} problems):{problems}",
                len(error.problems),
                problems=lines,
            )
        ) from None
    try:
        response = answer_at_once(request, answering)
    except RuleMisfit as misfit:
        raise CommandError(str(misfit)) from None
    if response is None:
        named = transport or request.transport or settings().transport
        if named == AUTO and not sys.stdin.isatty():
            raise CommandError(
                words().gettext(
                    "needs a terminal, and stdin is not one. Run it from an interactive shell, or "
                    "ask on a page with --transport web (it prints the page's address and waits "
                    "for the answer; agents with only a shell tool: this), or name a transport "
                    "in the request; scripts and CI: --unattended or --answers."
                )
            )
        with _terminal_output(named) as output:
            try:
                response = ask_person(
                    request, transport, output, open_browser=not arguments.no_browser
                )
            except TransportError as error:
                raise CommandError(
                    words().gettext("cannot ask on {name}: {reason}", name=named, reason=error)
                ) from None
    print(response.model_dump_json(), flush=True)
    answered = response.action_status in ("selected", "custom_input", "unattended")
    return ANSWERED if answered else NOT_ANSWERED


def _read_json(request_file: str | None, request_json: str | None) -> object:
    source = "--json" if request_file is None else request_file
    try:
        text = (
            request_json if request_file is None else Path(request_file).read_text(encoding="utf-8")
        )
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise CommandError(
            words().gettext("cannot read {file}: {reason}", file=request_file, reason=reason)
        ) from None
    try:
        return json.loads(text or "")
    except json.JSONDecodeError as error:
        raise CommandError(
            words().gettext(
                "{source} is not valid JSON: {problem} (line {line}, column {column})",
                source=source,
                problem=error.msg,
                line=error.lineno,
                column=error.colno,
            )
        ) from None


@contextmanager
def _terminal_output(named: str) -> Iterator[TextIO | None]:
    """Where a question for this terminal is drawn: never stdout, which carries only the response
    JSON. None without a terminal (keys come from stdin), unless `named` wants this terminal,
    which needs one."""
    if not sys.stdin.isatty():
        if named == "terminal":
            raise CommandError(
                words().gettext(
                    "needs a terminal, and stdin is not one. Run it from an interactive shell, "
                    "or ask on a page with --transport web."
                )
            )
        yield None
        return
    if sys.stderr.isatty():
        yield sys.stderr
        return
    try:
        terminal = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError:
        raise CommandError(
            words().gettext(
                "needs a terminal to draw on: stderr is redirected and /dev/tty cannot be opened"
            )
        ) from None
    with terminal:
        yield terminal
