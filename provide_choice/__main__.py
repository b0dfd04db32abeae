"""`provide-choice`: run the MCP server, or ask one question from a shell script.

Each command imports only what it uses: `serve` never loads the terminal UI before a question needs
it, and `ask` never loads the MCP SDK. So the imports inside this module's functions are deferred
for start-up time (each points downward, to a floor below this one).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import errno
import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

from present_choices._translation import N_, Translation, terminal_translation
from provide_choice._server._command_line import (
    ANSWERED,
    BUILT_IN_COMMANDS,
    DATA_COMMANDS,
    HISTORY_LIMIT,
    NOT_ANSWERED,
    PLUGIN_COMMANDS,
    PREFIX_WITHOUT_REDIS,
    REDIS_PREFIX,
    USAGE_ERROR,
    command_line,
    serve_problem,
)
from provide_choice._transports._registry import load_plugins, transport_commands
from provide_choice._web._site import HOST

if TYPE_CHECKING:
    from provide_choice._question import QuestionStore
    from provide_choice._server._serve import HttpServing
    from provide_choice._server._unattended import AnswerPolicy

if TYPE_CHECKING:
    from provide_choice._contract._settings import InteractionSettings

STARTED_BY_HAND = N_(
    "this is an MCP server on stdin and stdout, for an MCP client to start\n"
    "  (`provide-choice client-config claude-code`, or claude-desktop, cursor, vscode, prints its "
    "setup).\n"
    "  To try it by hand: `provide-choice ask REQUEST.json` asks one question in this terminal, "
    "and\n"
    "  `provide-choice serve --http 0` serves MCP over HTTP, with the questions shown here.\n"
    "  Waiting for a client on stdin; Ctrl-D or Ctrl-C stops it."
)
"""Said once when `serve` starts over stdio with a person's terminal on stdin."""


class CommandError(Exception):
    """A problem the person running the command can fix; printed as is, exit status 2."""


@cache
def _settings() -> InteractionSettings:
    """The person's settings, read once a command: a broken file is said to be so once."""
    # Deferred for start-up time: the settings load pydantic, which `--help` never needs.
    from provide_choice._contract._settings import load_settings

    return load_settings()


def _words() -> Translation:
    """The language the command speaks to the person: their setting, else the terminal's."""
    return terminal_translation(_settings().language)


def main(argv: Sequence[str] | None = None) -> int:
    _settings.cache_clear()  # read anew for each command run
    words = sys.argv[1:] if argv is None else list(argv)
    if not words or words[0] not in BUILT_IN_COMMANDS:
        load_plugins()  # a plug-in's own command (`telegram link`), or the list of them all
    arguments = command_line().parse_args(words)
    if arguments.command in DATA_COMMANDS:
        _make_private()
    if arguments.command in PLUGIN_COMMANDS:
        load_plugins()
    commands = transport_commands()
    if arguments.command in commands:
        return commands[arguments.command].run(arguments)
    try:
        if arguments.command == "serve":
            return _serve(arguments)
        if arguments.command == "history":
            return _history(arguments)
        if arguments.command == "inbox":
            return _inbox(arguments)
        if arguments.command == "client-config":
            return _client_config(arguments.client, arguments.http)
        return _ask(
            arguments.request_file,
            arguments.request_json,
            _policy("provide-choice ask", arguments),
            arguments.transport,
        )
    except CommandError as error:
        print(f"provide-choice {arguments.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


def _policy(who: str, arguments: argparse.Namespace) -> AnswerPolicy:
    """Who answers when nobody can, for `serve` and `ask`: from their options and environment."""
    from provide_choice._server._unattended import PolicyError, command_line_policy

    try:
        return command_line_policy(
            who,
            attended=arguments.attended,
            unattended=arguments.unattended,
            answers=arguments.answers,
            environ=os.environ,
        )
    except PolicyError as error:
        raise CommandError(str(error)) from None


def _make_private() -> None:
    """Take others' permissions off the data directory, the settings' directory and the files in
    them, where an earlier version left them open, and say so once."""
    from present_choices._private_files import describe_tightened, tighten, written_as
    from provide_choice._contract._settings import SETTINGS_FILE_NAME, settings_path
    from provide_choice._history._inbox_link import LINK_FILE_NAME, OPENER_FILE_NAME
    from provide_choice._history._store import HISTORY_FILE_NAME, data_directory

    data_files = [
        f"{HISTORY_FILE_NAME}*",  # with SQLite's own beside it (-wal, -shm, -journal)
        *written_as(LINK_FILE_NAME, OPENER_FILE_NAME, SETTINGS_FILE_NAME),
    ]
    settings = (settings_path().parent, written_as(SETTINGS_FILE_NAME))
    changed = tighten([(data_directory(), data_files), settings])
    if changed:
        print(
            f"provide-choice: {describe_tightened(changed, _words())}", file=sys.stderr, flush=True
        )


def _history(arguments: argparse.Namespace) -> int:
    from provide_choice._history._command import clear_history, show_history
    from provide_choice._history._store import history_path

    if arguments.yes and not arguments.clear:
        raise CommandError(_words().gettext("--yes only goes with --clear"))
    path = history_path()
    if arguments.clear:
        if arguments.json or arguments.limit or arguments.search:
            raise CommandError(
                _words().gettext(
                    "--clear deletes the whole history; it takes no --json, --limit or --search"
                )
            )
        if not arguments.yes and not sys.stdin.isatty():
            raise CommandError(
                _words().gettext(
                    "--clear asks before it deletes, and stdin is not a terminal to answer in; "
                    "add --yes to clear without asking"
                )
            )
        confirm = None if arguments.yes else _confirm
        return clear_history(path, confirm=confirm, translation=_words())
    if not _settings().keep_history:
        off = _words().gettext(
            "keep_history is off in your settings, so questions are not recorded any more; "
            "these are from before."
        )
        print(f"provide-choice history: {off}", file=sys.stderr)
    return show_history(
        path,
        limit=arguments.limit or HISTORY_LIMIT,
        text=arguments.search,
        as_json=arguments.json,
        translation=_words(),
    )


def _confirm(question: str) -> bool:
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = input()
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def _inbox(arguments: argparse.Namespace) -> int:
    from provide_choice._history._inbox._server import serve_inbox

    if arguments.redis is None and arguments.redis_prefix != REDIS_PREFIX:
        raise CommandError(PREFIX_WITHOUT_REDIS)
    store = None
    if arguments.redis is not None:
        store, _key = _redis_store(arguments.redis, arguments.redis_prefix)
    try:
        serve_inbox(arguments.port, open_browser=not arguments.no_browser, store=store)
    except OSError as error:
        raise _cannot_listen(error, arguments.port, "--port") from None
    return 0


def _cannot_listen(error: OSError, port: int, option: str, host: str = HOST) -> CommandError:
    """One line for a port that cannot be had: which, why, and how to get one that can."""
    if error.errno == errno.EADDRINUSE:
        return CommandError(
            _words().gettext(
                "port {port} on {host} is in use; {option} 0 picks a free one",
                port=port,
                host=host,
                option=option,
            )
        )
    return CommandError(
        _words().gettext(
            "cannot listen on port {port} of {host}: {reason}; {option} 0 picks a free one",
            port=port,
            host=host,
            reason=error.strerror or error,
            option=option,
        )
    )


def _serve(arguments: argparse.Namespace) -> int:
    problem = serve_problem(arguments)
    if problem is not None:
        raise CommandError(problem)
    policy = _policy("the server", arguments)
    from provide_choice._server._serve import serve_http, serve_stdio

    open_browser, max_wait = not arguments.no_browser, arguments.max_wait
    if arguments.http is None:
        if sys.stdin.isatty():
            started = _words().gettext(STARTED_BY_HAND)
            print(f"provide-choice serve: {started}", file=sys.stderr, flush=True)
        serve_stdio(
            bridge_port=arguments.bridge_port,
            open_browser=open_browser,
            max_wait_seconds=max_wait,
            policy=policy,
        )
        return 0
    serving = _http_serving(arguments)
    try:
        serve_http(
            serving,
            handoff=arguments.handoff,
            open_browser=open_browser,
            max_wait_seconds=max_wait,
            policy=policy,
        )
    except OSError as error:
        raise _cannot_listen(error, arguments.http, "--http", arguments.host) from None
    return 0


def _http_serving(arguments: argparse.Namespace) -> HttpServing:
    """Where and how `serve --http` listens, with the token it asks for (none with --no-auth)."""
    from provide_choice._server._serve import HttpServing
    from provide_choice._server._token import TokenProblem, server_token

    try:
        token = None if arguments.no_auth else server_token()
    except TokenProblem as problem:
        raise CommandError(str(problem)) from None
    serving = HttpServing(arguments.http, arguments.host, arguments.public_url, token)
    if arguments.redis is None:
        return serving
    store, key = _redis_store(arguments.redis, arguments.redis_prefix)
    return dataclasses.replace(serving, store=store, request_state_key=key)


def _redis_store(url: str, prefix: str) -> tuple[QuestionStore, bytes]:
    """The questions' store in the Redis at `url`, and the key that seals retried calls' states
    there; `CommandError` without the extra, for a URL that is not a Redis one, or when Redis does
    not answer within a few seconds. The URL is shown with its password as `***`."""
    from provide_choice._question import StoreUnavailable
    from provide_choice._question._store import without_password

    try:
        # Deferred for start-up time: redis-py loads only when --redis is given.
        from provide_choice._question._redis_store import RedisStore, check_store
    except ImportError:
        raise CommandError(
            "--redis needs the redis extra: pip install 'agent-choices[redis]' (in a checkout, "
            "pip install -e '.[redis]')"
        ) from None
    shown = without_password(url)
    try:
        key = asyncio.run(check_store(url, prefix))
    except ValueError as error:
        raise CommandError(
            f"--redis {shown} is not a Redis URL ({str(error).replace(url, shown)}); expected "
            "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss://... or unix://PATH"
        ) from None
    except StoreUnavailable as away:
        raise CommandError(f"cannot start: {away}") from None
    return RedisStore(url, prefix), key


def _client_config(client: str, endpoint: str | None) -> int:
    from provide_choice._server._client_config import ClientName, Remote, client_config
    from provide_choice._server._token import TokenProblem, server_token

    remote = None
    if endpoint is not None:
        try:
            token = server_token()
        except TokenProblem as problem:
            raise CommandError(str(problem)) from None
        remote = Remote(endpoint, token.value)
    config = client_config(cast(ClientName, client), remote)  # one of argparse's choices
    where = "" if remote is None else f" The token is the one in {token.source}."
    print(f"# {config.where}{where}", file=sys.stderr, flush=True)
    print(config.text, flush=True)
    return 0


def _ask(
    request_file: str | None,
    request_json: str | None,
    policy: AnswerPolicy,
    transport: str = "terminal",
) -> int:
    from present_choices import ChoicesError
    from provide_choice._contract._answers_file import RuleMisfit
    from provide_choice._contract._batch import is_batch
    from provide_choice._contract._request import parse_request
    from provide_choice._contract._transport_table import wish_names
    from provide_choice._question import TransportError
    from provide_choice._server._ask import answer_at_once, ask_in_terminal

    if transport not in wish_names():
        raise CommandError(
            _words().gettext(
                "--transport {name} is not a transport here; transports: {names}",
                name=transport,
                names=", ".join(wish_names()),
            )
        )

    data = _read_json(request_file, request_json)
    if isinstance(data, dict) and is_batch(data):
        raise CommandError(
            _words().gettext(
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
            _words().ngettext(
                "invalid request ({count} problem):{problems}",
                "invalid request ({count} problems):{problems}",
                len(error.problems),
                problems=lines,
            )
        ) from None
    try:
        response = answer_at_once(request, policy)
    except RuleMisfit as misfit:
        raise CommandError(str(misfit)) from None
    if response is None and transport != "terminal":
        try:
            response = ask_in_terminal(request, None, transport)
        except TransportError as error:
            raise CommandError(
                _words().gettext("cannot ask on {name}: {reason}", name=transport, reason=error)
            ) from None
    if response is None:
        if not sys.stdin.isatty():
            raise CommandError(
                _words().gettext(
                    "needs a terminal, and stdin is not one. Run it from an interactive shell "
                    "(agents: use `provide-choice serve`; scripts and CI: --unattended or "
                    "--answers)."
                )
            )
        with _terminal_output() as output:
            response = ask_in_terminal(request, output)
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
            _words().gettext("cannot read {file}: {reason}", file=request_file, reason=reason)
        ) from None
    try:
        return json.loads(text or "")
    except json.JSONDecodeError as error:
        raise CommandError(
            _words().gettext(
                "{source} is not valid JSON: {problem} (line {line}, column {column})",
                source=source,
                problem=error.msg,
                line=error.lineno,
                column=error.colno,
            )
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
            _words().gettext(
                "needs a terminal to draw on: stderr is redirected and /dev/tty cannot be opened"
            )
        ) from None
    with terminal:
        yield terminal


if __name__ == "__main__":
    sys.exit(main())
