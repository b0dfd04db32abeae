"""A command line that answers a typo with the word that was meant.

`choices-chat` and `provide-choice` both parse with `SuggestingParser`: an option it does not
know (`--agnet`) and a word outside a fixed set (a subcommand, `provide-choice serv`; a value,
`--agent dmo`) end with argparse's usage and exit status 2, as ever, plus the closest word it
knows: "did you mean --agent?". argparse of Python 3.11 to 3.13 says neither.

Those messages are ours, so they are said in the person's language (`words`: the terminal's, or
for `provide-choice` the person's setting), and so is the frame argparse puts around any mistake:
"usage:", "error:", "argument --limit:", "expected one argument", the arguments required. The
usage's synopsis itself (the options, their metavariables) and `--help` stay argparse's.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

from present_choices._locale_format import format_list
from present_choices._translation import N_, Translation, terminal_translation

_ARGUMENT = re.compile(r"argument (\S+): (.*)", re.DOTALL)
_REQUIRED = re.compile(r"the following arguments are required: (.*)", re.DOTALL)
ARGPARSE_MESSAGES = {
    "expected one argument": N_("expected one argument"),
    "expected at least one argument": N_("expected at least one argument"),
}
"""argparse's own fixed words for a value missing, said in the person's language."""


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

    def format_usage(self) -> str:
        formatter = self._get_formatter()
        prefix = self.words().gettext("usage: ")
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups, prefix)
        return formatter.format_help()

    def error(self, message: str) -> NoReturn:
        """argparse's way (the usage, then one line, exit status 2), in the person's language."""
        words = self.words()
        self.print_usage(sys.stderr)
        said = words.gettext(
            "{program}: error: {message}", program=self.prog, message=_said(message, words)
        )
        self.exit(2, said + "\n")

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


def _said(message: str, words: Translation) -> str:
    """argparse's message of a mistake in `words`: its frame ("argument --limit: ...", the
    arguments required) and its fixed words; what our own checks said is said already."""
    argument = _ARGUMENT.fullmatch(message)
    if argument:
        name, problem = argument.groups()
        return words.gettext("argument {name}: {problem}", name=name, problem=_said(problem, words))
    required = _REQUIRED.fullmatch(message)
    if required:
        return words.gettext(
            "the following arguments are required: {arguments}", arguments=required.group(1)
        )
    fixed = ARGPARSE_MESSAGES.get(message)
    return message if fixed is None else words.gettext(fixed)
