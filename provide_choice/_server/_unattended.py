"""Who answers when nobody can: a rule of the answers file, else nobody, at once, when the server
runs unattended or the person is away.

In CI, a scheduled job or any headless run, a question shown on a page no one sees only makes the
agent wait out the timeout and then hear defaults as if someone had chosen them. So the command
line decides (`serve` and `ask`: `--unattended`/`--attended`, `PROVIDE_CHOICE_UNATTENDED`, `CI`;
`--answers`, `PROVIDE_CHOICE_ANSWERS`) and hands the server an `AnswerPolicy`: a server made
in-process with `create_server()` asks the person unless it is given one. What is decided here is
answered through the one `respond`, as every surface's answer is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from present_choices._translation import ENGLISH, Translation
from provide_choice._contract._answers_file import (
    AnswersFile,
    AnswersFileError,
    load_answers_file,
)
from provide_choice._contract._batch import Asked
from provide_choice._contract._outcomes import FromAnswersFile, NobodyAsked
from provide_choice._contract._settings import InteractionSettings, away_until

UNATTENDED_VARIABLE = "PROVIDE_CHOICE_UNATTENDED"
ANSWERS_VARIABLE = "PROVIDE_CHOICE_ANSWERS"
CI_VARIABLE = "CI"
"""Set to `true` or `1` by CI services (GitHub Actions, GitLab CI, CircleCI, Travis, ...)."""
ON = ("1", "true", "yes", "on")
OFF = ("0", "false", "no", "off")


class PolicyError(Exception):
    """The command line's policy cannot be had (a broken answers file, a value that means
    nothing): one line saying what is wrong and what is allowed."""


@dataclass(frozen=True)
class AnswerPolicy:
    """Who answers a question before a person is asked. The default asks the person, always."""

    answers_file: AnswersFile | None = None
    """Its first rule that fits a question answers it, attended or not."""
    unattended: str | None = None
    """Why nobody is there to ask, as the reply says it ("the server runs unattended (CI is
    set)"); None: the server runs attended."""

    def notices(self, translation: Translation = ENGLISH) -> list[str]:
        """What a server says about it when it starts, so a log shows why nobody was asked, in
        `translation` (the person's terminal's)."""
        _ = translation
        notices = []
        if self.answers_file is not None:
            notices.append(
                _.ngettext(
                    "the answers file {file} answers the questions its {count} rule fits, before "
                    "anyone is asked",
                    "the answers file {file} answers the questions its {count} rules fit, before "
                    "anyone is asked",
                    len(self.answers_file.rules),
                    file=self.answers_file.name,
                )
            )
        if self.unattended is not None:
            notices.append(
                _.gettext(
                    "{reason}: every other question gets a reply at once, shown nowhere "
                    "(--attended asks the person)",
                    reason=self.unattended,
                )
                if notices
                else _.gettext(
                    "{reason}: every question gets a reply at once, shown nowhere (--attended "
                    "asks the person)",
                    reason=self.unattended,
                )
            )
        return notices

    def answer_at_once(
        self, asked: Asked, settings: InteractionSettings, now: datetime | None = None
    ) -> FromAnswersFile | NobodyAsked | None:
        """The answer given before anyone is asked: the answers file's, else nobody's while the
        server runs unattended or the person is away (as of `now`, an aware time); None when the
        person is to be asked. Raises `RuleMisfit` when a rule matches but does not fit."""
        if self.answers_file is not None:
            answer = self.answers_file.answer(asked)
            if answer is not None:
                return answer
        reason = self.unattended
        if reason is None and (until := away_until(settings, now)) is not None:
            reason = f"the person is away until {until} (local time)"
        if reason is None:
            return None
        return NobodyAsked(reason=reason, action=settings.unattended_action)


def command_line_policy(
    who: str, *, attended: bool, unattended: bool, answers: str | None, environ: Mapping[str, str]
) -> AnswerPolicy:
    """The policy a command (`who`: "the server", "provide-choice ask") runs under, from its
    options and its environment: `--attended`, else `--unattended`, else `PROVIDE_CHOICE_UNATTENDED`,
    else `CI` (`true` or `1`) say whether it runs unattended; `--answers`, else
    `PROVIDE_CHOICE_ANSWERS`, names the answers file. Raises `PolicyError`."""
    name = answers or environ.get(ANSWERS_VARIABLE) or None
    try:
        answers_file = None if name is None else load_answers_file(name)
    except AnswersFileError as error:
        raise PolicyError(str(error)) from None
    why = None if attended else _why_unattended(unattended, environ)
    return AnswerPolicy(answers_file, None if why is None else f"{who} runs unattended ({why})")


def _why_unattended(unattended: bool, environ: Mapping[str, str]) -> str | None:
    if unattended:
        return "--unattended"
    value = environ.get(UNATTENDED_VARIABLE, "")
    if value.strip():
        word = value.strip().lower()
        if word in ON:
            return f"{UNATTENDED_VARIABLE} is set"
        if word in OFF:
            return None
        raise PolicyError(
            f"{UNATTENDED_VARIABLE} must be 1 (unattended) or 0 (attended), got {value[:20]!r}"
        )
    if environ.get(CI_VARIABLE, "").strip().lower() in ("true", "1"):
        return f"{CI_VARIABLE} is set"
    return None
