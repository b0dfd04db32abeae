"""`provide-choice`: run the MCP server, or ask one question from a shell script.

Each command imports only what it uses: `serve` never loads the terminal UI before a question needs
it, and `ask` never loads the MCP SDK. So the imports inside this module's functions are deferred
for start-up time (each points downward, to a floor below this one).
"""

from __future__ import annotations

import argparse
import difflib
import errno
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, cast

from provide_choice._transports._registry import load_plugins

ANSWERED = 0
NOT_ANSWERED = 1
USAGE_ERROR = 2
PORT_MAX = 65_535
MAX_WAIT_SECONDS = 50.0
"""The default of `serve --max-wait` (the server's own default, kept here so `--help` needs no
MCP import; a test checks the two agree)."""
MAX_WAIT_LIMIT = 86_400
INBOX_PORT = 8766
"""The default of `inbox --port` (the inbox's own default, kept here so `--help` needs no FastAPI)."""
PLUGIN_COMMANDS = ("serve", "ask", "inbox")
"""The commands that load the transports installed as plug-ins (entry points) at start."""
HISTORY_LIMIT = 50
HISTORY_LIMIT_MAX = 1_000_000
STARTED_BY_HAND = """\
provide-choice serve: this is an MCP server on stdin and stdout, for an MCP client to start
  (`provide-choice client-config claude-code`, or claude-desktop, cursor, vscode, prints its setup).
  To try it by hand: `provide-choice ask REQUEST.json` asks one question in this terminal, and
  `provide-choice serve --http 0` serves MCP over HTTP, with the questions shown here.
  Waiting for a client on stdin; Ctrl-D or Ctrl-C stops it."""
"""Said once when `serve` starts over stdio with a person's terminal on stdin."""


class CommandError(Exception):
    """A problem the person running the command can fix; printed as is, exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if arguments.command in PLUGIN_COMMANDS:
        load_plugins()
    try:
        if arguments.command == "serve":
            return _serve(
                arguments.http,
                arguments.handoff,
                arguments.bridge_port,
                open_browser=not arguments.no_browser,
                max_wait_seconds=arguments.max_wait,
            )
        if arguments.command == "history":
            return _history(arguments)
        if arguments.command == "inbox":
            return _inbox(arguments.port, open_browser=not arguments.no_browser)
        if arguments.command == "client-config":
            return _client_config(arguments.client, arguments.http)
        return _ask(arguments.request_file, arguments.request_json)
    except CommandError as error:
        print(f"provide-choice {arguments.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


class _CommandParser(argparse.ArgumentParser):
    """A command's parser (`serve`, `ask`, ...): an option it does not know is its own mistake,
    shown with its own usage and the closest option it has, not the top level's usage."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, unknown = super().parse_known_args(args, namespace)
        if unknown:
            self.error(f"unrecognized arguments: {' '.join(unknown)}{self._suggestion(unknown)}")
        return parsed, unknown

    def _suggestion(self, unknown: list[str]) -> str:
        options = [name for action in self._actions for name in action.option_strings]
        close = [
            match
            for word in unknown
            if word.startswith("-")
            for match in difflib.get_close_matches(word.split("=", 1)[0], options, n=1)
        ]
        return f" (did you mean {' or '.join(dict.fromkeys(close))}?)" if close else ""


def _parser() -> argparse.ArgumentParser:
    from provide_choice._server._client_config import CLIENTS

    parser = argparse.ArgumentParser(
        prog="provide-choice",
        description="Ask a person a structured question and get one typed answer back.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_CommandParser)
    serve = commands.add_parser(
        "serve", help="run the MCP server (stdio unless --http)", description="Run the MCP server."
    )
    serve.add_argument(
        "--http",
        type=_port,
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
        type=_port,
        default=0,
        metavar="PORT",
        help="port of the local bridge for hand-offs and the pages on 127.0.0.1 "
        "(default: any free port)",
    )
    serve.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open questions asked in the browser (the page) by itself: their "
        "address is still printed on stderr and sent to the MCP client in a progress notification",
    )
    serve.add_argument(
        "--max-wait",
        type=_max_wait,
        default=MAX_WAIT_SECONDS,
        metavar="SECONDS",
        help="longest a tool call waits for the person before it returns 'pending' and the "
        "agent calls again with the session id (default: %(default)g, under the 60 s many "
        "clients allow a tool call; 0: wait until the question's own deadline)",
    )
    ask = commands.add_parser(
        "ask",
        help="ask one question in this terminal and print the response JSON on stdout",
        description="Ask one question in this terminal; stdout carries only the response JSON. "
        "The question is recorded in the history, like a server's.",
        epilog=f"Exit status: {ANSWERED} when the person answered; {NOT_ANSWERED} when the "
        "question ended without an answer (cancelled or timed out: action_status in the JSON "
        f"says which); {USAGE_ERROR} for a bad request or usage (nothing was asked, nothing is "
        "printed on stdout).",
    )
    source = ask.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "request_file", nargs="?", metavar="REQUEST.json", help="the request as a JSON file"
    )
    source.add_argument(
        "--json", dest="request_json", metavar="JSON", help="the request as JSON text"
    )
    history = commands.add_parser(
        "history",
        help="list the questions asked and how they ended, newest first",
        description="List the questions every provide-choice server of yours asked, newest first.",
    )
    history.add_argument(
        "--json", action="store_true", help="one JSON object a line instead of a table"
    )
    history.add_argument(
        "--limit",
        type=_history_limit,
        metavar="N",
        help=f"at most N questions (default {HISTORY_LIMIT})",
    )
    history.add_argument(
        "--search",
        type=_search_text,
        metavar="TEXT",
        help="only questions whose title, prompt, options, client or answer hold TEXT (any case)",
    )
    history.add_argument(
        "--clear", action="store_true", help="delete the whole history, after asking"
    )
    history.add_argument("--yes", action="store_true", help="with --clear: do not ask")
    inbox = commands.add_parser(
        "inbox",
        help="one local page with every question waiting in any of your servers",
        description="Serve one local page listing every question waiting in any provide-choice "
        "server of yours, live, and the last ones that ended.",
    )
    inbox.add_argument(
        "--port",
        type=_port,
        default=INBOX_PORT,
        metavar="PORT",
        help="port on 127.0.0.1 (default: %(default)s; 0: any free port)",
    )
    inbox.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open the page; its address, with its token, is printed",
    )
    client_config = commands.add_parser(
        "client-config",
        help="print what to paste into an MCP client to start this server",
        description="Print what to paste into an MCP client so that it starts this installation's "
        "provide-choice server (the command, or the JSON for the client's file), with its "
        "absolute path. Where it goes is said on stderr; stdout is only what to paste.",
    )
    client_config.add_argument("client", choices=CLIENTS, help="the MCP client")
    client_config.add_argument(
        "--http",
        type=_port,
        metavar="PORT",
        help="instead, reach the server that `provide-choice serve --http PORT` runs",
    )
    return parser


def _port(text: str) -> int:
    """A TCP port for argparse: 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= PORT_MAX:
        raise argparse.ArgumentTypeError(
            f"must be a port number from 0 (any free port) to {PORT_MAX}, got {text[:20]!r}"
        )
    return port


def _max_wait(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= MAX_WAIT_LIMIT:
        raise argparse.ArgumentTypeError(
            f"must be seconds from 0 (until the question's deadline) to {MAX_WAIT_LIMIT}, "
            f"got {text[:20]!r}"
        )
    return seconds


def _history_limit(text: str) -> int:
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if not 1 <= limit <= HISTORY_LIMIT_MAX:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of questions from 1 to {HISTORY_LIMIT_MAX}, got {text[:20]!r}"
        )
    return limit


def _search_text(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("must be some text to look for, got nothing")
    return text


def _history(arguments: argparse.Namespace) -> int:
    from provide_choice._contract._settings import load_settings
    from provide_choice._history._command import clear_history, show_history
    from provide_choice._history._store import history_path

    if arguments.yes and not arguments.clear:
        raise CommandError("--yes only goes with --clear")
    path = history_path()
    if arguments.clear:
        if arguments.json or arguments.limit or arguments.search:
            raise CommandError(
                "--clear deletes the whole history; it takes no --json, --limit or --search"
            )
        if not arguments.yes and not sys.stdin.isatty():
            raise CommandError(
                "--clear asks before it deletes, and stdin is not a terminal to answer in; "
                "add --yes to clear without asking"
            )
        return clear_history(path, confirm=None if arguments.yes else _confirm)
    if not load_settings().keep_history:
        print(
            "provide-choice history: keep_history is off in your settings, so questions are not "
            "recorded any more; these are from before.",
            file=sys.stderr,
        )
    return show_history(
        path,
        limit=arguments.limit or HISTORY_LIMIT,
        text=arguments.search,
        as_json=arguments.json,
    )


def _confirm(question: str) -> bool:
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = input()
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _inbox(port: int, *, open_browser: bool) -> int:
    from provide_choice._history._inbox._server import serve_inbox

    try:
        serve_inbox(port, open_browser=open_browser)
    except OSError as error:
        raise _cannot_listen(error, port, "--port") from None
    return 0


def _cannot_listen(error: OSError, port: int, option: str) -> CommandError:
    """One line for a port that cannot be had: which, why, and how to get one that can."""
    if error.errno == errno.EADDRINUSE:
        return CommandError(f"port {port} on 127.0.0.1 is in use; {option} 0 picks a free one")
    return CommandError(
        f"cannot listen on port {port} of 127.0.0.1: {error.strerror or error}; "
        f"{option} 0 picks a free one"
    )


def _serve(
    port: int | None,
    handoff: bool,
    bridge_port: int,
    *,
    open_browser: bool,
    max_wait_seconds: float,
) -> int:
    from provide_choice._server._serve import serve_http, serve_stdio

    if port is None:
        if sys.stdin.isatty():
            print(STARTED_BY_HAND, file=sys.stderr, flush=True)
        serve_stdio(
            bridge_port=bridge_port, open_browser=open_browser, max_wait_seconds=max_wait_seconds
        )
        return 0
    try:
        serve_http(
            port,
            handoff=handoff,
            bridge_port=bridge_port,
            open_browser=open_browser,
            max_wait_seconds=max_wait_seconds,
        )
    except OSError as error:
        raise _cannot_listen(error, port, "--http") from None
    return 0


def _client_config(client: str, http_port: int | None) -> int:
    from provide_choice._server._client_config import ClientConfigError, ClientName, client_config

    try:
        config = client_config(cast(ClientName, client), http_port)  # one of argparse's choices
    except ClientConfigError as error:
        raise CommandError(str(error)) from None
    print(f"# {config.where}", file=sys.stderr, flush=True)
    print(config.text, flush=True)
    return 0


def _ask(request_file: str | None, request_json: str | None) -> int:
    from present_choices import ChoicesError
    from provide_choice._contract._batch import is_batch
    from provide_choice._contract._request import parse_request
    from provide_choice._server._ask import ask_in_terminal

    data = _read_json(request_file, request_json)
    if isinstance(data, dict) and is_batch(data):
        raise CommandError(
            "asks one question at a time, and this request holds a batch (questions). Ask a "
            "batch through the MCP tool (`provide-choice serve`), or ask its questions one by one."
        )
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
    with _terminal_output() as output:
        response = ask_in_terminal(request, output)
    print(response.model_dump_json(), flush=True)
    answered = response.action_status in ("selected", "custom_input")
    return ANSWERED if answered else NOT_ANSWERED


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
