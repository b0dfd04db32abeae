"""`choices-chat`: run the chat in a browser with the demo agent or a scripted one."""

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


def main(argv: Sequence[str] | None = None) -> None:
    """Parse the command line, build the agent (failing early on a bad script), then serve."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.agent == "script" and args.script is None:
        parser.error("--agent script needs --script FILE")
    if args.agent == "demo" and args.script is not None:
        parser.error("--script is only used with --agent script")
    try:
        agent: Agent = DemoAgent() if args.agent == "demo" else load_script(args.script)
    except ScriptError as error:
        sys.exit(f"choices-chat: {error}")
    subtitle = "demo agent" if args.agent == "demo" else f"script: {Path(args.script).name}"

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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="choices-chat",
        description="A chat in your browser that shows an agent's ```choices blocks as buttons.",
    )
    parser.add_argument("--agent", choices=["demo", "script"], default="demo", help="default: demo")
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="JSON array of strings: the greeting, then the reply to each user message in turn",
    )
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="default: 8080")
    parser.add_argument("--no-show", action="store_true", help="do not open a browser tab")
    return parser


if __name__ == "__main__":
    main()
