"""The choices in a Gradio chat, on the same agents as `choices-chat` (no key needed for the demo).

    .venv/bin/pip install -e '.[gradio]'
    .venv/bin/python examples/gradio_chat.py --port 7860

It serves on 127.0.0.1 and takes its agent from the environment: `CHOICES_CHAT_AGENT` (`demo` by
default, `script`, `llm`, `ag-ui`), with `CHOICES_CHAT_SCRIPT`, `CHOICES_CHAT_MODEL`,
`CHOICES_CHAT_BASE_URL` or `CHOICES_CHAT_URL`. A bad value stops it before it serves, with one line
saying what is allowed. Gradio's usage analytics are off: nothing leaves this machine.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # before Gradio is imported
# This checkout's packages, for a Python that lacks them: it is then told how to get them.
sys.path.append(str(Path(__file__).resolve().parents[1]))
from present_choices._extras import needs_extra

with needs_extra("examples/gradio_chat.py", "gradio"):
    from chat_ui._agents._settings import SettingError, agent_from_environment


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="The choices in a Gradio chat.")
    parser.add_argument("--port", type=int, default=7860, help="default: 7860")
    return parser


def main() -> None:
    args = parser().parse_args()
    try:
        agent = agent_from_environment()
    except SettingError as error:
        print(f"gradio_chat: {error}", file=sys.stderr)
        sys.exit(2)
    # Gradio takes seconds to import: a bad variable is said before that.
    with needs_extra("examples/gradio_chat.py", "gradio"):
        from chat_ui.gradio import chat_interface
    chat_interface(agent).launch(server_name="127.0.0.1", server_port=args.port)


if __name__ == "__main__":
    main()
