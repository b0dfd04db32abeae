"""`choice-terminal`: answer a handed-off question in the terminal the agent opened.

It claims the session on the bridge, shows the question with the same flow as the in-process
terminal (`run_terminal_flow`: settings surface, every mode, notes, cancel, the live deadline; a
batch with `run_batch_flow`, each answer posted as it is given), posts what the person did back (the
server says what it means), and leaves one summary line on the screen. The agent then fetches the
answer with `provide_choice(session_id=...)`.

Anything that stops it is one line on stderr that says what to do, and a non-zero exit status: the
person reading it is in the middle of someone else's task, so no tracebacks. Ctrl-C, and SIGINT or
SIGTERM from outside, cancel the question (the agent gets `cancelled`) and exit 0.

The command is here, with the others; the session it runs is the hand-off transport's
(`_transports._terminal_handoff._remote`), loaded once the command line is read, with the
transports the plug-ins add (the question's settings may name one): its `--help` loads none of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from present_choices._stopping import Stopped, stop_on_signals
from provide_choice._transports._terminal_handoff._command import CLIENT_COMMAND

FAILED = 1


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if argv is None:
        # Run as the command (not called by a program, whose pydantic stays as it is): of the
        # models its modules define, it builds only those the session uses, when first used.
        from provide_choice._commands._model_builds import build_models_on_first_use

        build_models_on_first_use()
    # Deferred for start-up time: `--help` and a mistaken command line need none of it.
    from provide_choice._settings_file import terminal_words
    from provide_choice._transports._plug_ins import load_plugins
    from provide_choice._transports._terminal_handoff._remote import HandoffFailed, answer

    load_plugins()  # the question's settings may name a transport a plug-in adds
    try:
        with stop_on_signals():
            return answer(arguments.session, arguments.url)
    except HandoffFailed as error:
        said = error.said(terminal_words())
        print(f"{CLIENT_COMMAND}: {said}", file=sys.stderr, flush=True)
        return FAILED
    except Stopped as stop:  # before the question was shown, or once its answer was sent
        print(f"{CLIENT_COMMAND}: {stop.said(terminal_words())}", file=sys.stderr, flush=True)
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=CLIENT_COMMAND,
        description="Answer a question an agent handed off to this terminal (provide_choice).",
    )
    parser.add_argument("--session", required=True, help="the session id the agent got back")
    parser.add_argument("--url", required=True, help="the bridge address, http://127.0.0.1:<port>")
    return parser


if __name__ == "__main__":
    sys.exit(main())
