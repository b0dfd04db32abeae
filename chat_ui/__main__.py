"""`choices-chat`: run the chat in a browser with the demo agent, a scripted one, a language model, or
any agent served over AG-UI.

Every mistake on the command line (a model name without its provider, a missing API key, an extra
not installed, an unreadable file, `--tools` that name no tools, a header that is not NAME:VALUE, a
port that is taken, a Redis that cannot be reached or no cookie secret to share with the other
instances) ends the program before it serves anything, with exit status 2 and a message that says
what is expected; a mistyped option gets the closest one. Once it serves, it says where, on stderr,
whether or not it opens a browser; Ctrl-C or SIGTERM stops it with one line and exit status 0, its
last saves written.

With `--redis URL` (default: `$NICEGUI_REDIS_URL`) every conversation is kept in Redis, so that
several instances behind a proxy with sticky sessions share them; the session cookie is then signed
with `$CHOICES_CHAT_STORAGE_SECRET`, the same on every instance. NiceGUI's own storage stays on this
machine: the chat keeps nothing in it.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from nicegui import ui
from nicegui.storage import Storage

from chat_ui._agents import Agent, DemoAgent, ScriptError, load_script
from chat_ui._command_line._options import SECRET_VARIABLE, parse
from chat_ui._command_line._storage import private_storage, storage_secret
from chat_ui._nicegui._chat_page import TITLE, chat_page
from chat_ui._nicegui._language import chat_translation
from present_choices._addresses import without_password
from present_choices._extras import missing_extra
from present_choices._stopping import Stopped, stop_on_signals
from present_choices._translation import Translation, terminal_translation

if TYPE_CHECKING:
    from chat_ui._nicegui._redis_store import RedisStore

USAGE_ERROR = 2
MAKE_VARIABLE = "MAKELEVEL"
"""Set by make for the commands it runs: here, `make demo`, whose port is its PORT variable."""
PRIVATE_UMASK = 0o077
"""While the chat serves, what it creates is its owner's alone (files 600, directories 700):
NiceGUI writes each browser's conversation to a file of its own making."""
LISTEN_POLL_SECONDS = 0.02
"""How often the chat looks whether its port takes connections yet, to say where it is."""


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line, build the agent (failing early on a bad script or model), then serve
    until Ctrl-C or SIGTERM (NiceGUI's last saves done, then one line)."""
    try:
        with stop_on_signals():
            _run(argv)
    except Stopped as stop:
        print(f"choices-chat: {stop.said(_words())}", file=sys.stderr, flush=True)


def _words() -> Translation:
    """The language of the command's own lines, the terminal's (`--lang` is the chat's)."""
    return terminal_translation()


def _run(argv: Sequence[str] | None) -> None:
    parser, args = parse(argv)
    agent, subtitle_in = _agent(parser, args)
    secret = _shared_secret() if args.redis else None
    redis_store = _redis_store(parser, args.redis) if args.redis else None
    port = _claim_port(args.host, args.port)

    @ui.page("/", title=TITLE, language="en-US", dark=None)
    def index() -> None:
        subtitle = subtitle_in(chat_translation(args.lang))
        if redis_store is None:
            chat_page(agent, subtitle=subtitle, language=args.lang)
        else:
            store = redis_store.conversation()
            chat_page(agent, subtitle=subtitle, store=store, language=args.lang)

    directory = private_storage()
    # NiceGUI reads $NICEGUI_STORAGE_PATH when it is imported; this sets the default it lacks.
    Storage.path = directory.resolve()
    # And $NICEGUI_REDIS_URL: its storage would rewrite whole dictionaries in Redis, and keep a
    # connection per browser, for nothing of ours. The conversations are in `redis_store`.
    Storage.redis_url = None
    at = _words().gettext(
        "the chat is at {address} (Ctrl-C stops it)", address=_address(args.host, port)
    )
    _say_once_listening(args.host, port, f"choices-chat: {at}")
    umask = os.umask(PRIVATE_UMASK)
    try:
        ui.run(
            host=args.host,
            port=port,
            show=not args.no_show,
            reload=False,
            storage_secret=secret or storage_secret(directory),
            # NiceGUI's own line goes to stdout and says "ready" before the port is bound; ours
            # goes to stderr once it is, with or without --no-show.
            show_welcome_message=False,
        )
    finally:
        os.umask(umask)


Subtitle = Callable[[Translation], str]
"""The page's subtitle in the chat's language (the browser's, or `--lang`): which agent it talks to."""


def _agent(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[Agent, Subtitle]:
    """The agent `--agent` names, built (exit 2 when it cannot be), and the page's subtitle for it."""
    if args.agent == "llm":
        agent = _llm_agent(parser, args)
        return agent, lambda _: _.gettext("model: {model}", model=args.model)
    if args.agent == "ag-ui":
        agent = _agui_agent(parser, args)
        url = without_password(args.url)
        return agent, lambda _: _.gettext("AG-UI agent: {url}", url=url)
    if args.agent == "demo":
        return DemoAgent(), lambda _: _.gettext("demo agent")
    try:
        script = load_script(args.script)
    except ScriptError as error:
        _fail(str(error))
    name = Path(args.script).name
    return script, lambda _: _.gettext("script: {name}", name=name)


def _fail(message: str) -> NoReturn:
    print(f"choices-chat: {message}", file=sys.stderr, flush=True)
    sys.exit(USAGE_ERROR)


def _claim_port(host: str, port: int) -> int:
    """The port to serve on: `port`, or a free one for 0. Exits 2 with one line when it is taken.

    NiceGUI binds the port itself, long after it has said it is ready, and fails there with
    uvicorn's raw error (exit 3); and it serves port 0 as 8080. So the port is bound here first,
    on the host it will serve, and let go at once for NiceGUI to take. Between the two another
    program could take it: that race is narrow (milliseconds), and losing it gives uvicorn's own
    error, as before.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.create_server((host, port), family=family) as probe:
            bound: int = probe.getsockname()[1]
    except OverflowError:
        _fail(
            _words().gettext(
                "--port must be from 0 (any free port) to 65535, got {port}", port=port
            )
        )
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            _fail(_port_taken(port, host))
        reason = error.strerror or error
        _fail(
            _words().gettext(
                "cannot serve on {host} port {port}: {reason} (--host and --port choose where)",
                host=host,
                port=port,
                reason=reason,
            )
        )
    return bound


def _port_taken(port: int, host: str) -> str:
    """That `port` is taken, and how to choose another in the words of the command the person
    typed: `make demo`'s PORT, or `--port`."""
    if os.environ.get(MAKE_VARIABLE):
        return _words().gettext(
            "port {port} on {host} is in use; choose another with make demo PORT=<a free port> "
            "(PORT=0 picks one)",
            port=port,
            host=host,
        )
    return _words().gettext(
        "port {port} on {host} is in use; choose another with --port PORT (--port 0 picks a free "
        "one)",
        port=port,
        host=host,
    )


def _say_once_listening(host: str, port: int, line: str) -> None:
    """Print `line` on stderr once the chat takes connections on `port`: NiceGUI binds it only
    after starting its app, and a person (or a script) given the address sooner would find it
    refused. A thread waits for it, as `ui.run` keeps this one until the chat stops."""
    target = host if host not in ("0.0.0.0", "::", "") else "127.0.0.1"

    def wait() -> None:
        while True:
            try:
                socket.create_connection((target, port), timeout=1).close()
                break
            except OSError:
                time.sleep(LISTEN_POLL_SECONDS)
        print(line, file=sys.stderr, flush=True)

    threading.Thread(target=wait, name="choices-chat-ready", daemon=True).start()


def _address(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _missing_extra(option: str, extra: str, error: ImportError) -> NoReturn:
    """Exit 2 saying, in one line, that `option` needs `extra`, and how to add it where this runs
    (`present_choices._extras`: the one wording of every program of the project)."""
    _fail(missing_extra(option, extra, error, _words()))


def _shared_secret() -> str:
    """The cookie secret every instance shares; exit 2 saying what to set when there is none."""
    secret = os.environ.get(SECRET_VARIABLE, "").strip()
    if not secret:
        _fail(
            _words().gettext(
                "--redis needs ${variable}: set it to one long random string, the same on every "
                "instance (it signs the session cookies), e.g. the output of "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'",
                variable=SECRET_VARIABLE,
            )
        )
    return secret


def _redis_store(parser: argparse.ArgumentParser, url: str) -> RedisStore:
    """The conversations' store at `url`; exit 2 without the extra, for a URL that is not a Redis
    one, or when Redis does not answer (within a few seconds). The URL is shown without its
    password."""
    try:
        from chat_ui._nicegui._redis_store import RedisStore
        from chat_ui._stores._redis_store import check_reachable
    except ImportError as error:
        _missing_extra("--redis", "redis", error)
    shown = without_password(url)
    try:
        asyncio.run(check_reachable(url))
    except ValueError as error:
        _fail(
            _words().gettext(
                "--redis {url} is not a Redis URL ({problem}); expected "
                "redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], rediss://... or unix://PATH",
                url=shown,
                problem=error,
            )
        )
    except Exception as error:
        reason = str(error) or type(error).__name__
        _fail(
            _words().gettext(
                "cannot reach Redis at {url}: {reason}",
                url=shown,
                reason=reason.replace(url, shown),
            )
        )
    return RedisStore(url)


def _llm_agent(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Agent:
    """The model-backed agent; `parser.error` (exit 2) for anything that keeps it from working."""
    try:
        from pydantic_ai.exceptions import UserError

        from chat_ui._agents.llm._agent import DEFAULT_SYSTEM_PROMPT, LLMAgent
        from chat_ui._agents.llm._model import ModelSettingError
        from chat_ui._agents.llm._user_tools import ToolsError, load_tools
    except ImportError as error:
        _missing_extra("--agent llm", "llm", error)
    system_prompt = DEFAULT_SYSTEM_PROMPT
    if args.system_prompt is not None:
        system_prompt = _read_system_prompt(parser, Path(args.system_prompt))
    try:
        tools = [tool for spec in args.tools or () for tool in load_tools(spec)]
        return LLMAgent(
            args.model, base_url=args.base_url, system_prompt=system_prompt, tools=tools
        )
    except (ModelSettingError, ToolsError) as error:
        parser.error(str(error))
    except UserError as error:  # pydantic-ai refusing the tools, say two of one name
        parser.error(f"--tools: {error}")


def _agui_agent(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Agent:
    """The AG-UI client; `parser.error` (exit 2) without its extra or with a bad address."""
    try:
        from chat_ui._agents.agui._agent import AGUIAgent
    except ImportError as error:
        _missing_extra("--agent ag-ui", "ag-ui", error)
    try:
        return AGUIAgent(args.url, headers=dict(args.header or []))
    except ValueError as error:
        parser.error(f"--url: {error}")


def _read_system_prompt(parser: argparse.ArgumentParser, path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        parser.error(f"system prompt file {path} not found")
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"cannot read system prompt file {path} ({error}); it must be UTF-8 text")
    if not text.strip():
        parser.error(f"system prompt file {path} is empty")
    return text.strip()


if __name__ == "__main__":
    main()
