"""`choices-chat`'s command line: its options, and the rules between them (which option goes with
which `--agent`), checked before anything is built, each mistake a usage error (exit status 2) that
says what is expected; a mistyped option gets the closest one."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence

from chat_ui._agents._settings import (
    AGENT,
    AGENTS,
    BASE_URL,
    MODEL,
    SCRIPT,
    URL,
    SettingError,
    settings_from_environment,
)
from present_choices._command_line import SuggestingParser
from present_choices._translation import valid_tag

LLM_OPTIONS = ("model", "base_url", "system_prompt", "tools")
AG_UI_OPTIONS = ("url", "header")
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP token (RFC 9110)
REDIS_VARIABLE = "NICEGUI_REDIS_URL"
SECRET_VARIABLE = "CHOICES_CHAT_STORAGE_SECRET"


def parse(argv: Sequence[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The command line `argv` read (`parser.error`, exit 2, for a mistake), with its parser: the
    program reports the mistakes it finds later (a model it cannot build, say) through it."""
    parser = command_parser()
    args = parser.parse_args(argv)
    _take_environment(parser, args)
    if args.agent == "script" and args.script is None:
        parser.error("--agent script needs --script FILE")
    if args.agent != "script" and args.script is not None:
        parser.error("--script is only used with --agent script")
    if args.agent == "llm" and args.model is None:
        parser.error("--agent llm needs --model PROVIDER:MODEL, for example openai:gpt-4o-mini")
    if args.agent != "llm" and any(getattr(args, name) is not None for name in LLM_OPTIONS):
        parser.error(
            "--model, --base-url, --system-prompt and --tools are only used with --agent llm"
        )
    if args.agent == "ag-ui" and args.url is None:
        parser.error("--agent ag-ui needs --url URL, the address of the agent's AG-UI endpoint")
    if args.agent != "ag-ui" and any(getattr(args, name) is not None for name in AG_UI_OPTIONS):
        parser.error("--url and --header are only used with --agent ag-ui")
    return parser, args


def _take_environment(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Fill what the options leave out from the variables the Gradio and Streamlit examples read
    (`CHOICES_CHAT_AGENT`, ...): the options win, and a variable fills only what the agent they
    choose uses. A bad value is a usage error naming the variable."""
    try:
        settings = settings_from_environment()
    except SettingError as error:
        parser.error(str(error))
    if args.agent is None:
        args.agent = settings.agent
    if args.agent == "script" and args.script is None:
        args.script = settings.script
    if args.agent == "llm":
        args.model = args.model or settings.model
        args.base_url = args.base_url or settings.base_url
    if args.agent == "ag-ui" and args.url is None:
        args.url = settings.url


def command_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(
        prog="choices-chat",
        description="A chat in your browser that shows an agent's ```choices blocks as buttons.",
    )
    parser.add_argument(
        "--agent",
        choices=AGENTS,
        help=f"default: ${AGENT} when set, else demo (each option of the agent likewise: "
        f"${SCRIPT}, ${MODEL}, ${BASE_URL}, ${URL})",
    )
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="JSON array of strings: the greeting, then the reply to each user message in turn",
    )
    parser.add_argument(
        "--model",
        metavar="PROVIDER:MODEL",
        help="with --agent llm: for example openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, "
        "ollama:llama3.2 (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY, ...)",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="with --agent llm: an OpenAI-compatible server, e.g. http://localhost:11434/v1",
    )
    parser.add_argument(
        "--system-prompt",
        metavar="FILE",
        help="with --agent llm: a text file replacing the default system prompt",
    )
    parser.add_argument(
        "--tools",
        metavar="MODULE:NAME",
        action="append",
        help="with --agent llm: the agent's own tools, NAME in MODULE (imported from the current "
        "directory) being a function, a pydantic-ai Tool or a list of them; a Tool declared "
        "requires_approval=True asks you first (repeatable)",
    )
    parser.add_argument(
        "--url",
        metavar="URL",
        help="with --agent ag-ui: the agent's AG-UI endpoint, e.g. http://localhost:8000/agent",
    )
    parser.add_argument(
        "--header",
        metavar="NAME:VALUE",
        type=_header,
        action="append",
        help="with --agent ag-ui: a header sent with every request, e.g. 'Authorization: Bearer "
        "TOKEN' (repeatable)",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        default=os.environ.get(REDIS_VARIABLE) or None,
        help=f"keep conversations in Redis, shared by every instance (default: ${REDIS_VARIABLE} "
        f"when set); needs ${SECRET_VARIABLE}, the same on every instance",
    )
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="default: 8080; 0 picks a free one")
    parser.add_argument("--no-show", action="store_true", help="do not open a browser tab")
    parser.add_argument(
        "--lang",
        type=_language_tag,
        metavar="TAG",
        help="the chat's language, a tag such as en, zh-Hans or zh-CN (default: each browser's)",
    )
    return parser


def _language_tag(text: str) -> str:
    if not valid_tag(text):
        raise argparse.ArgumentTypeError(
            f"must be a language tag such as en, zh-Hans or zh-CN, got {text[:20]!r}"
        )
    return text


def _header(text: str) -> tuple[str, str]:
    """`--header NAME:VALUE` as a (name, value) pair; argparse reports a bad one and exits 2."""
    name, colon, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not colon or not HEADER_NAME.fullmatch(name) or "\r" in value or "\n" in value:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME:VALUE, for example 'Authorization: Bearer TOKEN' "
            "(a name of letters, digits and -, then a colon, then the value)"
        )
    return name, value
