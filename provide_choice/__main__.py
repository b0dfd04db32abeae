"""`provide-choice`: run the MCP server, or ask one question from a shell script.

Each command imports only what it uses: `serve` never loads the terminal UI before a question needs
it, and `ask` never loads the MCP SDK.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

USAGE_ERROR = 2


class CommandError(Exception):
    """A problem the person running the command can fix; printed as is, exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    try:
        if arguments.command == "serve":
            return _serve(
                arguments.http,
                arguments.handoff,
                arguments.bridge_port,
                open_browser=not arguments.no_browser,
            )
        return _ask(arguments.request_file, arguments.request_json)
    except CommandError as error:
        print(f"provide-choice {arguments.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="provide-choice",
        description="Ask a person a structured question and get one typed answer back.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser(
        "serve", help="run the MCP server (stdio unless --http)", description="Run the MCP server."
    )
    serve.add_argument(
        "--http",
        type=int,
        metavar="PORT",
        help="serve streamable HTTP on 127.0.0.1:PORT (0: any free port); questions appear in this terminal",
    )
    serve.add_argument(
        "--handoff",
        action="store_true",
        help="never ask in this terminal: hand questions for the terminal off to one the agent "
        "opens with the command it gets back (always so over stdio)",
    )
    serve.add_argument(
        "--bridge-port",
        type=int,
        default=0,
        metavar="PORT",
        help="port of the local bridge for hand-offs and the web portal on 127.0.0.1 "
        "(default: any free port)",
    )
    serve.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open questions asked in the browser (the web portal) by itself: their "
        "address is still printed on stderr and sent to the MCP client in a progress notification",
    )
    ask = commands.add_parser(
        "ask",
        help="ask one question in this terminal and print the response JSON on stdout",
        description="Ask one question in this terminal; stdout carries only the response JSON.",
    )
    source = ask.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "request_file", nargs="?", metavar="REQUEST.json", help="the request as a JSON file"
    )
    source.add_argument(
        "--json", dest="request_json", metavar="JSON", help="the request as JSON text"
    )
    return parser


def _serve(port: int | None, handoff: bool, bridge_port: int, *, open_browser: bool) -> int:
    from provide_choice._server import serve_http, serve_stdio

    if port is None:
        serve_stdio(bridge_port=bridge_port, open_browser=open_browser)
        return 0
    try:
        serve_http(port, handoff=handoff, bridge_port=bridge_port, open_browser=open_browser)
    except OSError as error:
        raise CommandError(
            f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}"
        ) from None
    return 0


def _ask(request_file: str | None, request_json: str | None) -> int:
    from present_choices import ChoicesError
    from provide_choice._request import parse_request
    from provide_choice._response import normalize
    from provide_choice._settings import load_settings
    from provide_choice._transport import Interaction, TerminalTransport

    data = _read_json(request_file, request_json)
    try:
        request = parse_request(data)
    except ChoicesError as error:
        count = len(error.problems)
        lines = "".join(f"\n  - {problem}" for problem in error.problems)
        raise CommandError(
            f"invalid request ({count} problem{'s' if count > 1 else ''}):{lines}"
        ) from None
    if not sys.stdin.isatty():
        raise CommandError(
            "needs a terminal, and stdin is not one. Run it from an interactive shell "
            "(agents: use `provide-choice serve`)."
        )
    interaction = Interaction.start(request, load_settings())
    with _terminal_output() as output:
        outcome = asyncio.run(TerminalTransport(output).ask(interaction))
    print(normalize(request, outcome, "terminal").model_dump_json(), flush=True)
    return 0


def _read_json(request_file: str | None, request_json: str | None) -> object:
    source = "--json" if request_file is None else request_file
    try:
        text = (
            request_json if request_file is None else Path(request_file).read_text(encoding="utf-8")
        )
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise CommandError(f"cannot read {request_file}: {reason}") from None
    try:
        return json.loads(text or "")
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{source} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None


@contextmanager
def _terminal_output() -> Iterator[TextIO]:
    """Where the question is drawn: never stdout, which carries only the response JSON."""
    if sys.stderr.isatty():
        yield sys.stderr
        return
    try:
        terminal = open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError:
        raise CommandError(
            "needs a terminal to draw on: stderr is redirected and /dev/tty cannot be opened"
        ) from None
    with terminal:
        yield terminal


if __name__ == "__main__":
    sys.exit(main())
