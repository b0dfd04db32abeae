"""`choices-chat`: run the chat in a browser with the demo agent, a scripted one, or a language model.

Every mistake on the command line (a model name without its provider, a missing API key, the `llm`
extra not installed, an unreadable file) ends the program before it serves anything, with exit
status 2 and a message that says what is expected.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from nicegui import ui
from nicegui.storage import Storage

from chat_ui._agents import Agent, DemoAgent, ScriptError, load_script
from chat_ui._chat_page import TITLE, chat_page
from chat_ui._storage import storage_dir, storage_secret

LLM_EXTRA_HINT = "pip install 'agent-choices[llm]'"
LLM_OPTIONS = ("model", "base_url", "system_prompt")


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line, build the agent (failing early on a bad script or model), then serve."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.agent == "script" and args.script is None:
        parser.error("--agent script needs --script FILE")
    if args.agent != "script" and args.script is not None:
        parser.error("--script is only used with --agent script")
    if args.agent == "llm" and args.model is None:
        parser.error("--agent llm needs --model PROVIDER:MODEL, for example openai:gpt-4o-mini")
    if args.agent != "llm" and any(getattr(args, name) is not None for name in LLM_OPTIONS):
        parser.error("--model, --base-url and --system-prompt are only used with --agent llm")
    agent: Agent
    if args.agent == "llm":
        agent = _llm_agent(parser, args)
        subtitle = f"model: {args.model}"
    elif args.agent == "demo":
        agent, subtitle = DemoAgent(), "demo agent"
    else:
        try:
            agent = load_script(args.script)
        except ScriptError as error:
            sys.exit(f"choices-chat: {error}")
        subtitle = f"script: {Path(args.script).name}"

    @ui.page("/", title=TITLE, language="en-US", dark=None)
    def index() -> None:
        chat_page(agent, subtitle=subtitle)

    directory = storage_dir()
    # NiceGUI reads $NICEGUI_STORAGE_PATH when it is imported; this sets the default it lacks.
    Storage.path = directory.resolve()
    ui.run(
        host=args.host,
        port=args.port,
        show=not args.no_show,
        reload=False,
        storage_secret=storage_secret(directory),
        show_welcome_message=not args.no_show,
    )


def _llm_agent(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Agent:
    """The model-backed agent; `parser.error` (exit 2) for anything that keeps it from working."""
    try:
        from chat_ui._llm_agent import DEFAULT_SYSTEM_PROMPT, LLMAgent
        from chat_ui._llm_model import ModelSettingError
    except ImportError as error:
        parser.error(
            f"--agent llm needs the llm extra ({error.name or error} is not installed): "
            f"{LLM_EXTRA_HINT}"
        )
    system_prompt = DEFAULT_SYSTEM_PROMPT
    if args.system_prompt is not None:
        system_prompt = _read_system_prompt(parser, Path(args.system_prompt))
    try:
        return LLMAgent(args.model, base_url=args.base_url, system_prompt=system_prompt)
    except ModelSettingError as error:
        parser.error(str(error))


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="choices-chat",
        description="A chat in your browser that shows an agent's ```choices blocks as buttons.",
    )
    parser.add_argument(
        "--agent", choices=["demo", "script", "llm"], default="demo", help="default: demo"
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
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="default: 8080")
    parser.add_argument("--no-show", action="store_true", help="do not open a browser tab")
    return parser


if __name__ == "__main__":
    main()
