"""The command line of `provide-choice`: every command, its options and how each is checked.

Kept apart from `__main__`, which runs the commands: the parser builds without importing what the
commands use (the MCP SDK, Starlette, the terminal UI), so `--help` and a mistyped option answer at
once.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeAlias

from present_choices._command_line import SuggestingParser
from present_choices._translation import Translation
from provide_choice._bridge._site import HOST, is_loopback
from provide_choice._commands._option_values import (
    history_limit,
    max_wait,
    mcp_endpoint,
    port,
    public_url,
    search_text,
    words,
)
from provide_choice._server._client_config import CLIENTS

if TYPE_CHECKING:
    from provide_choice._transports._base import TransportCommand

ANSWERED = 0
NOT_ANSWERED = 1
USAGE_ERROR = 2
MAX_WAIT_SECONDS = 50.0
"""The default of `serve --max-wait` (the server's own default, kept here so `--help` needs no
MCP import; a test checks the two agree)."""
INBOX_PORT = 8766
"""The default of `inbox --port` (the inbox's own default, kept here so `--help` needs no Starlette)."""
BUILT_IN_COMMANDS = ("serve", "ask", "history", "inbox", "client-config")
"""The commands of `provide-choice` itself; a transport may add one of its own (`TransportCommand`)."""
HELP_OPTIONS = ("-h", "--help")
"""`provide-choice --help` lists the commands without loading the plug-ins: finding them alone
(reading every installed distribution's entry points) takes longer than the rest of the answer."""
REGISTRY = "provide_choice._transports._plug_ins"
PLUGIN_COMMANDS = ("serve", "ask", "inbox")
"""The commands that load the transports installed as plug-ins (entry points) at start."""
DATA_COMMANDS = ("serve", "ask", "history", "inbox")
"""The commands that read or write the person's data directory and settings, and so make them
private at start where an earlier version left them open to others."""
HISTORY_LIMIT = 50
REDIS_PREFIX = "provide-choice:"
"""The default of `--redis-prefix`: every key this package writes in Redis starts with it."""
PREFIX_WITHOUT_REDIS = "--redis-prefix goes with --redis URL"


class _Parser(SuggestingParser):
    """Says its own messages (the closest option or command, a value refused) in the person's
    language: their setting, else the terminal's."""

    def words(self) -> Translation:
        return words()


def command_line() -> argparse.ArgumentParser:
    """The parser of `provide-choice` and each of its commands."""
    parser = _Parser(
        prog="provide-choice",
        description="Ask a person a structured question and get one typed answer back.",
        epilog="A transport installed as a plug-in may add a command of its own, named as it: "
        "`provide-choice NAME --help` (`provide-choice telegram --help`).",
    )
    # Each command's own parser: an option it does not know is its mistake, shown with its usage.
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    serve = commands.add_parser(
        "serve", help="run the MCP server (stdio unless --http)", description="Run the MCP server."
    )
    _where_it_listens(serve)
    _how_it_asks(serve)
    _ask_command(commands)
    _history_command(commands)
    _inbox_command(commands)
    _client_config_command(commands)
    for name, command in _transport_commands().items():
        if name not in BUILT_IN_COMMANDS:
            command.arguments(
                commands.add_parser(name, help=command.help, description=command.help)
            )
    return parser


def _transport_commands() -> Mapping[str, TransportCommand]:
    """The commands of the transports registered so far (the package's own add none). A transport
    registers through `_plug_ins`, so until something has imported it (loading the plug-ins does)
    none is registered, and the parser is built without loading a single transport."""
    registry = sys.modules.get(REGISTRY)
    if registry is None:
        return {}
    commands: Mapping[str, TransportCommand] = registry.transport_commands()
    return commands


Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"
"""Where each command's parser is added."""


def _where_it_listens(serve: argparse.ArgumentParser) -> None:
    """The options of `serve` that say where it listens, and for whom: stdio or HTTP, the
    address, the public URL, the token, the Redis its instances share."""
    serve.add_argument(
        "--http",
        type=port,
        metavar="PORT",
        help="serve streamable HTTP on 127.0.0.1:PORT (0: any free port), MCP at /mcp and the "
        "question pages beside it; questions appear in this terminal",
    )
    serve.add_argument(
        "--host",
        default=HOST,
        metavar="ADDR",
        help="with --http: the address to listen on (default: %(default)s, this machine only; "
        "0.0.0.0: every interface, with --public-url)",
    )
    serve.add_argument(
        "--public-url",
        type=public_url,
        metavar="URL",
        help="with --http: where people and agents reach this server (your TLS proxy, "
        "https://choices.example.com); pages are given as URL/choice/<id>, MCP is at URL/mcp "
        "(default: http://ADDR:PORT)",
    )
    serve.add_argument(
        "--no-auth",
        action="store_true",
        help="with --http on loopback only: take MCP requests without the token (any program on "
        "this machine may then ask the person questions)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="with --http: keep waiting questions in Redis, shared by every instance on it "
        "(redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss://... for TLS, unix://PATH; "
        "the redis extra)",
    )
    serve.add_argument(
        "--redis-prefix",
        default=REDIS_PREFIX,
        metavar="PREFIX",
        help="with --redis: the start of every key written in Redis (default: %(default)s)",
    )


def _how_it_asks(serve: argparse.ArgumentParser) -> None:
    """The options of `serve` that say how it asks: in this terminal or handed off (and where the
    hand-offs' bridge listens), the browser, who answers when nobody can, how long a call
    waits."""
    serve.add_argument(
        "--handoff",
        action="store_true",
        help="never ask in this terminal: hand questions for the terminal off to one the agent "
        "opens with the command it gets back (always so over stdio)",
    )
    serve.add_argument(
        "--bridge-port",
        type=port,
        default=0,
        metavar="PORT",
        help="over stdio: port of the local bridge for hand-offs and the pages on 127.0.0.1 "
        "(default: any free port; with --http they are served on the --http port)",
    )
    serve.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open questions asked in the browser (the page) by itself: their "
        "address is still printed on stderr and sent to the MCP client in a progress notification",
    )
    _when_nobody_answers(serve, "the server")
    serve.add_argument(
        "--max-wait",
        type=max_wait,
        default=MAX_WAIT_SECONDS,
        metavar="SECONDS",
        help="longest a tool call waits for the person before it returns 'pending' and the "
        "agent calls again with the session id (default: %(default)g, under the 60 s many "
        "clients allow a tool call; 0: wait until the question's own deadline)",
    )


def _ask_command(commands: Commands) -> None:
    ask = commands.add_parser(
        "ask",
        help="ask one question (in this terminal, or on a page) and print the response JSON on "
        "stdout",
        description="Ask one question where a server would (this terminal; the transport the "
        "request or --transport names, a page or a plug-in's, which need no terminal); stdout "
        "carries only the response JSON. The question is recorded in the history, like a "
        "server's.",
        epilog=f"Exit status: {ANSWERED} when the person answered, or the answers file did, or "
        "nobody could be asked (action_status 'unattended'); "
        f"{NOT_ANSWERED} when the question ended without an answer (cancelled or timed out: "
        f"action_status in the JSON says which); {USAGE_ERROR} for a bad request, answers file "
        "or usage (nothing was asked, nothing is printed on stdout).",
    )
    source = ask.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "request_file", nargs="?", metavar="REQUEST.json", help="the request as a JSON file"
    )
    source.add_argument(
        "--json", dest="request_json", metavar="JSON", help="the request as JSON text"
    )
    ask.add_argument(
        "--transport",
        metavar="NAME",
        help="ask there, whatever the request says: terminal, web (a page: its address on "
        "stderr, the answer on stdout; no terminal needed), or a transport set up here that "
        "needs no MCP client, such as telegram (set up and linked); default: the request's "
        "transport, else your setting, else the automatic order",
    )
    ask.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open a page in the browser (its address is printed on stderr)",
    )
    _when_nobody_answers(ask, "it")


def _history_command(commands: Commands) -> None:
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
        type=history_limit,
        metavar="N",
        help=f"at most N questions (default {HISTORY_LIMIT})",
    )
    history.add_argument(
        "--search",
        type=search_text,
        metavar="TEXT",
        help="only questions whose title, prompt, options, client or answer hold TEXT (any case)",
    )
    history.add_argument(
        "--clear", action="store_true", help="delete the whole history, after asking"
    )
    history.add_argument("--yes", action="store_true", help="with --clear: do not ask")


def _inbox_command(commands: Commands) -> None:
    inbox = commands.add_parser(
        "inbox",
        help="one local page with every question waiting in any of your servers",
        description="Serve one local page listing every question waiting in any provide-choice "
        "server of yours, live, and the last ones that ended.",
    )
    inbox.add_argument(
        "--port",
        type=port,
        default=INBOX_PORT,
        metavar="PORT",
        help="port on 127.0.0.1 (default: %(default)s; 0: any free port)",
    )
    inbox.add_argument(
        "--no-browser",
        action="store_true",
        help="do not open the page; its address, with its token, is printed",
    )
    inbox.add_argument(
        "--redis",
        metavar="URL",
        help="list the questions waiting in every `serve --http --redis URL` instance on this "
        "Redis (the redis extra), instead of this machine's servers",
    )
    inbox.add_argument(
        "--redis-prefix",
        default=REDIS_PREFIX,
        metavar="PREFIX",
        help="with --redis: the prefix the servers were given (default: %(default)s)",
    )


def _client_config_command(commands: Commands) -> None:
    client_config = commands.add_parser(
        "client-config",
        help="print what to paste into an MCP client to start or reach this server",
        description="Print what to paste into an MCP client so that it starts this installation's "
        "provide-choice server (the command, or the JSON for the client's file), with its "
        "absolute path; or, with --http, so that it reaches a server `provide-choice serve "
        "--http` runs, with this machine's token. Where it goes is said on stderr; stdout is "
        "only what to paste.",
    )
    client_config.add_argument("client", choices=CLIENTS, help="the MCP client")
    client_config.add_argument(
        "--http",
        type=mcp_endpoint,
        metavar="URL",
        help="instead, reach the server `provide-choice serve --http` runs: its MCP endpoint "
        "(https://choices.example.com/mcp), or the PORT of one on this machine",
    )


def serve_problem(arguments: argparse.Namespace) -> str | None:
    """What is wrong with a `serve` command line that each option alone does not say: options
    that go with others, and a server reachable from elsewhere without its token."""
    http_only = {
        "--host": arguments.host != HOST,
        "--public-url": arguments.public_url is not None,
        "--no-auth": arguments.no_auth,
        "--redis": arguments.redis is not None,
    }
    if arguments.http is None:
        given = [option for option, present in http_only.items() if present]
        if given:
            return f"{given[0]} goes with --http PORT (over stdio the MCP client starts the server)"
        return None
    if arguments.bridge_port:
        return (
            "--bridge-port is for a server over stdio: with --http, the pages and hand-offs are "
            "served on the --http port"
        )
    if arguments.redis is None and arguments.redis_prefix != REDIS_PREFIX:
        return PREFIX_WITHOUT_REDIS
    if not arguments.redis_prefix:
        return "--redis-prefix must not be empty: every key starts with it"
    public = arguments.public_url
    if arguments.no_auth and not is_loopback(arguments.host.strip("[]")):
        return (
            f"--no-auth is for a server only this machine reaches, and --host {arguments.host} "
            "listens for others: give clients the token instead (`provide-choice client-config "
            "CLIENT --http URL` prints it)"
        )
    if arguments.no_auth and public is not None and not public.loopback:
        return (
            f"--no-auth is for a server only this machine reaches, and --public-url {public.base} "
            "is reached from elsewhere: give clients the token instead (`provide-choice "
            "client-config CLIENT --http URL` prints it)"
        )
    if public is None and arguments.host.strip("[]") in ("0.0.0.0", "::"):
        return (
            f"--host {arguments.host} listens on every interface: say where people and agents "
            "reach this server with --public-url (https://choices.example.com), since every "
            "address it gives out is under it"
        )
    return None


def _when_nobody_answers(command: argparse.ArgumentParser, who: str) -> None:
    """The options of `serve` and `ask` that say who answers when nobody can."""
    mode = command.add_mutually_exclusive_group()
    mode.add_argument(
        "--unattended",
        action="store_true",
        help=f"nobody is there to answer: {who} answers every question at once, shown nowhere, "
        "with action_status 'unattended' (the answers file first); the default when CI is true "
        "or 1, or PROVIDE_CHOICE_UNATTENDED is 1",
    )
    mode.add_argument(
        "--attended",
        action="store_true",
        help="ask the person, even where CI or PROVIDE_CHOICE_UNATTENDED says unattended",
    )
    command.add_argument(
        "--answers",
        metavar="FILE",
        help="an answers file (JSON): its first rule whose title fits a question answers it, "
        "before anyone is asked (default: $PROVIDE_CHOICE_ANSWERS)",
    )
