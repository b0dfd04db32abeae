"""`provide-choice`: run the MCP server, or ask one question from a shell script.

The command line is read (`_commands._command_line`) and the command it names is run by its own
module of `_commands`, imported only then; a problem the person can fix is one line on stderr and
exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Mapping, Sequence

from provide_choice._commands._command_line import (
    DATA_COMMANDS,
    HELP_OPTIONS,
    PLUGIN_COMMANDS,
    USAGE_ERROR,
    command_line,
)
from provide_choice._commands._model_builds import build_models_on_first_use
from provide_choice._commands._running import CommandError, make_private, settings

COMMANDS: Mapping[str, str] = {
    "serve": "provide_choice._commands._serve:run_serve",
    "ask": "provide_choice._commands._ask:run_ask",
    "history": "provide_choice._commands._history:run_history",
    "inbox": "provide_choice._commands._serve:run_inbox",
    "client-config": "provide_choice._commands._client_config:run_client_config",
}
"""What runs each command, by its name on the command line: imported when that command runs, so
`--help`, a mistyped option and every other command load none of it. A transport may add one of
its own (`TransportCommand`: `provide-choice telegram link`), found once the plug-ins are loaded."""


def _runner(command: str) -> Callable[[argparse.Namespace], int]:
    if command not in COMMANDS:
        from provide_choice._transports._plug_ins import transport_commands

        return transport_commands()[command].run
    module, function = COMMANDS[command].split(":")
    runner: Callable[[argparse.Namespace], int] = getattr(importlib.import_module(module), function)
    return runner


def _load_plugins() -> None:
    # Deferred for start-up time: the transports load for the commands that use them.
    from provide_choice._transports._plug_ins import load_plugins

    load_plugins()


def main(argv: Sequence[str] | None = None) -> int:
    settings.cache_clear()  # read anew for each command run
    words = sys.argv[1:] if argv is None else list(argv)
    if not words or words[0] not in (*COMMANDS, *HELP_OPTIONS):
        _load_plugins()  # a plug-in's own command (`telegram link`), or a mistyped one
    arguments = command_line().parse_args(words)
    if arguments.command in DATA_COMMANDS:
        if argv is None:
            # Run as the command (not called by a program, whose pydantic stays as it is): these
            # validate settings, requests or MCP messages, and their models, the MCP SDK's among
            # them, are built as each is first used, from before the first is defined.
            build_models_on_first_use()
        make_private()
    if arguments.command in PLUGIN_COMMANDS:
        _load_plugins()
    run = _runner(arguments.command)
    try:
        return run(arguments)
    except CommandError as error:
        print(f"provide-choice {arguments.command}: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
