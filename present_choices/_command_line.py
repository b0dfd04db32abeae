"""A command line that answers a typo with the word that was meant.

`choices-chat` and `provide-choice` both parse with `SuggestingParser`: an option it does not
know (`--agnet`) and a word outside a fixed set (a subcommand, `provide-choice serv`; a value,
`--agent dmo`) end with argparse's usage and exit status 2, as ever, plus the closest word it
knows: "did you mean --agent?". argparse of Python 3.11 to 3.13 says neither.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterable, Sequence
from typing import Any


class SuggestingParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose mistakes name the closest option or choice. Used for a command's
    subcommands too (`parser_class=`), an option a subcommand does not know is its own mistake,
    shown with its own usage."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, unknown = super().parse_known_args(args, namespace)
        if unknown:
            options = [name for action in self._actions for name in action.option_strings]
            typed = [word.split("=", 1)[0] for word in unknown if word.startswith("-")]
            suggestion = _closest(typed, options)
            hint = f" (did you mean {suggestion}?)" if suggestion else ""
            self.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")
        return parsed, unknown

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's own check, which refuses a value outside `choices`, with the closest one."""
        choices = action.choices
        if choices is None or value in choices or not isinstance(value, str):
            super()._check_value(action, value)
            return
        known = [str(choice) for choice in choices]
        suggestion = _closest([value], known)
        hint = f"; did you mean {suggestion}?" if suggestion else ""
        raise argparse.ArgumentError(
            action, f"invalid choice: {value!r}{hint} (choose from {', '.join(known)})"
        )


def _closest(typed: Iterable[str], known: list[str]) -> str:
    """The closest known word to each typed one, joined with "or"; empty when none is close."""
    close = [match for word in typed for match in difflib.get_close_matches(word, known, n=1)]
    return " or ".join(dict.fromkeys(close))
