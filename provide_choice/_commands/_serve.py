"""`provide-choice serve`, and `inbox`: the MCP server over stdio or HTTP (with its token, and the
Redis its instances share), and the inbox page (this machine's servers, or a Redis's). A port that
cannot be had, a Redis that does not answer, a missing extra: one line, exit status 2."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
from typing import TYPE_CHECKING

from present_choices._translation import N_
from provide_choice._commands._command_line import (
    PREFIX_WITHOUT_REDIS,
    REDIS_PREFIX,
    serve_problem,
)
from provide_choice._commands._running import CommandError, cannot_listen, policy, words

if TYPE_CHECKING:
    from provide_choice._question import QuestionStore
    from provide_choice._server._serve import HttpServing

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


def run_serve(arguments: argparse.Namespace) -> int:
    problem = serve_problem(arguments)
    if problem is not None:
        raise CommandError(problem)
    answering = policy("the server", arguments)
    from provide_choice._server._serve import serve_http, serve_stdio

    open_browser, max_wait = not arguments.no_browser, arguments.max_wait
    if arguments.http is None:
        if sys.stdin.isatty():
            started = words().gettext(STARTED_BY_HAND)
            print(f"provide-choice serve: {started}", file=sys.stderr, flush=True)
        serve_stdio(
            bridge_port=arguments.bridge_port,
            open_browser=open_browser,
            max_wait_seconds=max_wait,
            policy=answering,
        )
        return 0
    serving = _http_serving(arguments)
    try:
        serve_http(
            serving,
            handoff=arguments.handoff,
            open_browser=open_browser,
            max_wait_seconds=max_wait,
            policy=answering,
        )
    except OSError as error:
        raise cannot_listen(error, arguments.http, "--http", arguments.host) from None
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
    store, key = _questions_in_redis(arguments.redis, arguments.redis_prefix)
    return dataclasses.replace(serving, store=store, request_state_key=key)


def _questions_in_redis(url: str, prefix: str) -> tuple[QuestionStore, bytes]:
    """The questions' store in the Redis at `url`, and the key that seals retried calls' states
    there; `CommandError` without the extra, for a URL that is not a Redis one, or when Redis does
    not answer within a few seconds. The URL is shown with its password as `***`."""
    from present_choices._addresses import without_password
    from provide_choice._question import StoreUnavailable

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


def run_inbox(arguments: argparse.Namespace) -> int:
    from provide_choice._history._inbox._server import serve_inbox

    if arguments.redis is None and arguments.redis_prefix != REDIS_PREFIX:
        raise CommandError(PREFIX_WITHOUT_REDIS)
    store = None
    if arguments.redis is not None:
        store, _key = _questions_in_redis(arguments.redis, arguments.redis_prefix)
    try:
        serve_inbox(arguments.port, open_browser=not arguments.no_browser, store=store)
    except OSError as error:
        raise cannot_listen(error, arguments.port, "--port") from None
    return 0
