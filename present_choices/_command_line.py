"""A command line that answers a typo with the word that was meant.

`choices-chat` and `provide-choice` both parse with `SuggestingParser`: an option it does not
know (`--agnet`) and a word outside a fixed set (a subcommand, `provide-choice serv`; a value,
`--agent dmo`) end with argparse's usage and exit status 2, as ever, plus the closest word it
knows: "did you mean --agent?". argparse of Python 3.11 to 3.13 says neither.

Those messages are ours, so they are said in the person's language (`words`: the terminal's, or
for `provide-choice` the person's setting); the rest of the usage and "error:" stay argparse's.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterable, Sequence
from typing import Any

from present_choices._locale_format import format_list
from present_choices._translation import Translation, terminal_translation


class SuggestingParser(argparse.ArgumentParser):
    """An `ArgumentParser` whose mistakes name the closest option or choice. Used for a command's
    subcommands too (`parser_class=`), an option a subcommand does not know is its own mistake,
    shown with its own usage."""

    def words(self) -> Translation:
        """The language of this parser's own messages: the terminal's (its `LC_ALL`,
        `LC_MESSAGES`, `LANG`)."""
        return terminal_translation()

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, unknown = super().parse_known_args(args, namespace)
        if unknown:
            options = [name for action in self._actions for name in action.option_strings]
            typed = [word.split("=", 1)[0] for word in unknown if word.startswith("-")]
            words = self.words()
            suggestion = _closest(typed, options, words)
            arguments = " ".join(unknown)
            if suggestion:
                self.error(
                    words.gettext(
                        "unrecognized arguments: {arguments} (did you mean {suggestion}?)",
                        arguments=arguments,
                        suggestion=suggestion,
                    )
                )
            self.error(words.gettext("unrecognized arguments: {arguments}", arguments=arguments))
        return parsed, unknown

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's own check, which refuses a value outside `choices`, with the closest one."""
        choices = action.choices
        if choices is None or value in choices or not isinstance(value, str):
            super()._check_value(action, value)
            return
        known = [str(choice) for choice in choices]
        words = self.words()
        suggestion = _closest([value], known, words)
        shown = {"value": repr(value), "choices": ", ".join(known)}
        if suggestion:
            message = words.gettext(
                "invalid choice: {value}; did you mean {suggestion}? (choose from {choices})",
                suggestion=suggestion,
                **shown,
            )
        else:
            message = words.gettext("invalid choice: {value} (choose from {choices})", **shown)
        raise argparse.ArgumentError(action, message)


def _closest(typed: Iterable[str], known: list[str], words: Translation) -> str:
    """The closest known word to each typed one, listed with "or" in the person's language; empty
    when none is close."""
    close = [match for word in typed for match in difflib.get_close_matches(word, known, n=1)]
    return format_list(list(dict.fromkeys(close)), words, style="or") if close else ""
