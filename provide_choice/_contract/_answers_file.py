"""The answers file: answers written in advance, for runs nobody attends (CI, scheduled jobs) and
for people who script their agents, so the same question gets the same answer every time.

A JSON file `{"answers": [rule, ...]}`. The first rule whose `title` equals the question's title
(a batch's own title), or whose `title_matches` (a Python regular expression, searched as
`re.search` does) matches it, answers it: `selected_ids` and `custom_input` for a question,
`questions` keyed by question id for a batch, `note` as the overall note. Its answer is checked as
a person's is (`outcome_problems`, `batch_outcome_problems`, the limits and the modes), and a rule
that does not fit is refused naming the file and the rule (`RuleMisfit`): nothing is guessed.

The file is read once, when a command starts: one that is missing, is not JSON or is not of this
shape is refused then (`AnswersFileError`, one line, with line and column for JSON).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from present_choices import describe_errors
from present_choices._schema import quote_all, type_name
from provide_choice._contract._answer_checks import outcome_problems
from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._batch_response import batch_outcome_problems
from provide_choice._contract._outcomes import Answered, BatchAnswered, FromAnswersFile
from provide_choice._contract._request import ProvideChoiceRequest, id_count

SHAPE_PROBLEMS_SHOWN = 3
"""Problems of a file's shape named in its one line; the rest are counted."""


class QuestionRule(BaseModel):
    """A rule's answer to one question of a batch."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    selected_ids: list[str] = Field(default_factory=list)
    custom_input: str | None = None


class AnswerRule(BaseModel):
    """One rule: which questions it answers (by title), and its answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str | None = None
    title_matches: str | None = None
    selected_ids: list[str] | None = None
    custom_input: str | None = None
    questions: dict[str, QuestionRule] | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _one_title_and_one_answer(self) -> Self:
        if (self.title is None) == (self.title_matches is None):
            raise ValueError("must have either title or title_matches")
        if self.title_matches is not None:
            try:
                re.compile(self.title_matches)
            except re.error as error:
                raise ValueError(
                    f"has a title_matches that is no regular expression ({error})"
                ) from None
        one = self.selected_ids is not None or self.custom_input is not None
        if one and self.questions is not None:
            raise ValueError(
                "must answer either one question (selected_ids, custom_input) or a batch "
                "(questions), not both"
            )
        if not one and self.questions is None:
            raise ValueError("gives no answer: add selected_ids, custom_input, or questions")
        return self

    def matches(self, title: str) -> bool:
        if self.title_matches is not None:
            return re.search(self.title_matches, title) is not None
        return self.title == title

    def answer(self) -> Answered | BatchAnswered:
        if self.questions is not None:
            answers = {
                question_id: Answered(
                    selected_ids=rule.selected_ids, custom_input=rule.custom_input
                )
                for question_id, rule in self.questions.items()
            }
            return BatchAnswered(answers=answers, global_annotation=self.note)
        return Answered(
            selected_ids=self.selected_ids or [],
            custom_input=self.custom_input,
            global_annotation=self.note,
        )


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    answers: list[AnswerRule]


class AnswersFileError(Exception):
    """The answers file cannot be used: one line naming it and the problem."""


class RuleMisfit(Exception):
    """A rule matched the question but does not fit it: the message names the file, the rule and
    every problem, and says what the question takes."""


@dataclass(frozen=True)
class AnswersFile:
    """The rules of one answers file, in their order."""

    name: str
    """The file's name as given (`--answers ci/answers.json`), as summaries and errors say it."""
    rules: tuple[AnswerRule, ...]

    def answer(self, asked: Asked) -> FromAnswersFile | None:
        """The answer of the first rule whose title fits what was asked; None when no rule does.
        Raises `RuleMisfit` when that rule's answer does not fit the question."""
        for index, rule in enumerate(self.rules):
            if not rule.matches(asked.title):
                continue
            answer = rule.answer()
            if isinstance(asked, BatchRequest):
                problems = batch_outcome_problems(asked, answer)
            else:
                problems = outcome_problems(asked, answer)
            if problems:
                raise RuleMisfit(
                    f"The answers file {self.name} cannot answer this question: its rule "
                    f"answers[{index}] matches the title but does not fit the question. Nothing "
                    "was shown to anyone and nothing was guessed; the rule must be fixed in the "
                    "file:\n" + "\n".join(f"- {line}" for line in problems + takes(asked))
                )
            return FromAnswersFile(answer=answer, file=self.name)
        return None


def load_answers_file(name: str) -> AnswersFile:
    """The answers file at `name` (a path, as given). Raises `AnswersFileError` saying what is
    wrong with it, in one line."""
    try:
        data = json.loads(Path(name).read_bytes())
    except FileNotFoundError:
        raise AnswersFileError(f"the answers file {name} does not exist") from None
    except OSError as error:
        raise AnswersFileError(
            f"the answers file {name} cannot be read ({error.strerror or error})"
        ) from None
    except json.JSONDecodeError as error:
        raise AnswersFileError(
            f"the answers file {name} is not valid JSON: {error.msg} (line {error.lineno}, "
            f"column {error.colno})"
        ) from None
    except UnicodeDecodeError:
        raise AnswersFileError(f"the answers file {name} is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:  # a 5,000-digit number, nesting 100,000 deep
        raise AnswersFileError(
            f"the answers file {name} cannot be parsed ({type(error).__name__})"
        ) from None
    if not isinstance(data, dict):
        problems = [f"the file must hold an object, got {type_name(data)}"]
    else:
        try:
            return AnswersFile(name, tuple(_Shape.model_validate(data, strict=True).answers))
        except ValidationError as error:
            problems = describe_errors(error, _Shape)
    more = len(problems) - SHAPE_PROBLEMS_SHOWN
    raise AnswersFileError(
        f"the answers file {name} is not of the answers file's shape "
        '({"answers": [{"title" or "title_matches", "selected_ids", "custom_input" or '
        '"questions", "note"}]}): '
        + "; ".join(problems[:SHAPE_PROBLEMS_SHOWN])
        + (f"; and {more} more" if more > 0 else "")
    )


def takes(asked: Asked) -> list[str]:
    """What an answer to this question must be, in the answers file's words."""
    if not isinstance(asked, BatchRequest):
        return [f"the question takes {_takes(asked)}"]
    ids = quote_all(item.id for item in asked.questions)
    return [f"the batch takes questions with every one of {ids}"] + [
        f"{item.id} takes {_takes(item.request)}" for item in asked.questions
    ]


def _takes(request: ProvideChoiceRequest) -> str:
    mode = request.selection_mode
    if mode == "text_input":
        return "custom_input (text_input), and no selected_ids"
    limits = request.limits
    choice = f"selected_ids with {id_count(limits.minimum, limits.maximum)} of "
    choice += quote_all(request.option_ids)
    if mode == "hybrid":
        return f"{choice}, or custom_input with at most {limits.maximum} of them (hybrid)"
    return f"{choice} ({mode}), and no custom_input"
