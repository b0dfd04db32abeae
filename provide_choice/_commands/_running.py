"""What every command shares as it runs: the one error a person can fix (`CommandError`, said as
one line, exit status 2), their settings and language, read once a command, and who answers when
nobody can (`serve`, `ask`). Imports are deferred for start-up time: `--help` loads none of them.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from functools import cache
from typing import TYPE_CHECKING

from present_choices._translation import Translation, terminal_translation
from provide_choice._bridge._site import HOST

if TYPE_CHECKING:
    from provide_choice._contract._settings import InteractionSettings
    from provide_choice._server._unattended import AnswerPolicy


class CommandError(Exception):
    """A problem the person running the command can fix; printed as is, exit status 2."""


@cache
def settings() -> InteractionSettings:
    """The person's settings, read once a command: a broken file is said to be so once."""
    # Deferred for start-up time: the settings load pydantic, which `--help` never needs.
    from provide_choice._settings_file import load_settings

    return load_settings()


def words() -> Translation:
    """The language the command speaks to the person: their setting, else the terminal's."""
    return terminal_translation(settings().language)


def policy(who: str, arguments: argparse.Namespace) -> AnswerPolicy:
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


def make_private() -> None:
    """Take others' permissions off the data directory, the settings' directory and the files in
    them, where an earlier version left them open, and say so once."""
    from present_choices._private_files import describe_tightened, tighten, written_as
    from provide_choice._history._inbox_link import LINK_FILE_NAME, OPENER_FILE_NAME
    from provide_choice._history._store import HISTORY_FILE_NAME, data_directory
    from provide_choice._settings_file import SETTINGS_FILE_NAME, settings_path

    data_files = [
        f"{HISTORY_FILE_NAME}*",  # with SQLite's own beside it (-wal, -shm, -journal)
        *written_as(LINK_FILE_NAME, OPENER_FILE_NAME, SETTINGS_FILE_NAME),
    ]
    settings_folder = (settings_path().parent, written_as(SETTINGS_FILE_NAME))
    changed = tighten([(data_directory(), data_files), settings_folder])
    if changed:
        print(
            f"provide-choice: {describe_tightened(changed, words())}", file=sys.stderr, flush=True
        )


def cannot_listen(error: OSError, port: int, option: str, host: str = HOST) -> CommandError:
    """One line for a port that cannot be had: which, why, and how to get one that can."""
    if error.errno == errno.EADDRINUSE:
        return CommandError(
            words().gettext(
                "port {port} on {host} is in use; {option} 0 picks a free one",
                port=port,
                host=host,
                option=option,
            )
        )
    return CommandError(
        words().gettext(
            "cannot listen on port {port} of {host}: {reason}; {option} 0 picks a free one",
            port=port,
            host=host,
            reason=error.strerror or error,
            option=option,
        )
    )
