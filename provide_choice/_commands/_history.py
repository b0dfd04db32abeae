"""`provide-choice history`: the questions every server of the person asked, newest first; or,
with `--clear`, none any more (after asking, unless `--yes`)."""

from __future__ import annotations

import argparse
import sys

from provide_choice._commands._command_line import HISTORY_LIMIT
from provide_choice._commands._running import CommandError, settings, words


def run_history(arguments: argparse.Namespace) -> int:
    from provide_choice._history._command import clear_history, show_history
    from provide_choice._history._store import history_path

    if arguments.yes and not arguments.clear:
        raise CommandError(words().gettext("--yes only goes with --clear"))
    path = history_path()
    if arguments.clear:
        if arguments.json or arguments.limit or arguments.search:
            raise CommandError(
                words().gettext(
                    "--clear deletes the whole history; it takes no --json, --limit or --search"
                )
            )
        if not arguments.yes and not sys.stdin.isatty():
            raise CommandError(
                words().gettext(
                    "--clear asks before it deletes, and stdin is not a terminal to answer in; "
                    "add --yes to clear without asking"
                )
            )
        confirm = None if arguments.yes else _confirm
        return clear_history(path, confirm=confirm, translation=words())
    if not settings().keep_history:
        off = words().gettext(
            "keep_history is off in your settings, so questions are not recorded any more; "
            "these are from before."
        )
        print(f"provide-choice history: {off}", file=sys.stderr)
    return show_history(
        path,
        limit=arguments.limit or HISTORY_LIMIT,
        text=arguments.search,
        as_json=arguments.json,
        translation=words(),
    )


def _confirm(question: str) -> bool:
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = input()
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
