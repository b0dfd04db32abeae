"""`provide-choice`: run the MCP server, or ask one question from a shell script.

The command line is read (`_commands._command_line`) and the command it names is run by its own
module of `_commands`; a problem the person can fix is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence

from provide_choice._commands._ask import run_ask
from provide_choice._commands._client_config import run_client_config
from provide_choice._commands._command_line import (
    DATA_COMMANDS,
    PLUGIN_COMMANDS,
    USAGE_ERROR,
    command_line,
)
from provide_choice._commands._history import run_history
from provide_choice._commands._running import CommandError, make_private, settings
from provide_choice._commands._serve import run_inbox, run_serve
from provide_choice._transports._registry import load_plugins, transport_commands

COMMANDS: Mapping[str, Callable[[argparse.Namespace], int]] = {
    "serve": run_serve,
    "ask": run_ask,
    "history": run_history,
    "inbox": run_inbox,
    "client-config": run_client_config,
}
"""What runs each command, by its name on the command line; a transport may add one of its own
(`TransportCommand`: `provide-choice telegram link`), found once the plug-ins are loaded."""


def main(argv: Sequence[str] | None = None) -> int:
    settings.cache_clear()  # read anew for each command run
    words = sys.argv[1:] if argv is None else list(argv)
    if not words or words[0] not in COMMANDS:
        load_plugins()  # a plug-in's own command (`telegram link`), or the list of them all
    arguments = command_line().parse_args(words)
    if arguments.command in DATA_COMMANDS:
        make_private()
    if arguments.command in PLUGIN_COMMANDS:
        load_plugins()
    run = COMMANDS.get(arguments.command) or transport_commands()[arguments.command].run
    try:
        return run(arguments)
    except CommandError as error:
        print(f"provide-choice {arguments.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
