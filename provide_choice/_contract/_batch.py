"""A batch: several questions in one `provide_choice` call (`questions`), asked at once.

Agents ask in batches (Claude Code's AskUserQuestion, Codex's `request_user_input`), and a person
answering three decisions should not wait for three round trips. A batch is one open question for
everything around it (one session, one history row), holding 1 to `MAX_QUESTIONS` questions; each
is an ordinary `ProvideChoiceRequest` (titled with the batch's title), so every rule of a single
question (validation, `_meaning`, `normalize`'s checks) applies to it unchanged.

Validation lists every problem of every question at once, each prefixed by the question's id.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from present_choices import ChoicesError
from present_choices._schema import quote, quote_all
from provide_choice._contract._request import (
    DEFAULT_TIMEOUT_SECONDS,
    REQUEST_FIELDS,
    ProvideChoiceRequest,
    Title,
    describe,
    parse_request,
)
from provide_choice._contract._transport_table import RequestedTransport

MAX_QUESTIONS = 6
QUESTION_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
HEADER_LIMIT = 30
BATCH_FIELDS = ("title", "timeout_seconds", "transport", "allow_annotations", "allow_cancel")
"""What a batch says once, at the top: the rest of a request's fields belong to each question."""
QUESTION_FIELDS = tuple(name for name in REQUEST_FIELDS if name not in BATCH_FIELDS)
"""The single-question fields: in a batch, each question has them."""


class BatchQuestion(BaseModel):
    """One question of a batch: its id, its chip, and the question as a single request."""

    model_config = ConfigDict(frozen=True)

    id: str
    header: str | None
    request: ProvideChoiceRequest

    @property
    def name(self) -> str:
        """What the question is called wherever it is named (the page's reasons, the terminal's
        review, the dialog's field title, the summary, the history): its header, else its id, so
        that what the person reads and what the agent is told name it alike."""
        return self.header or self.id


class BatchRequest(BaseModel):
    """Several questions for a person in one call; what the agent sends as `questions`."""

    model_config = ConfigDict(frozen=True)

    title: str
    questions: list[BatchQuestion]
    timeout_seconds: int = DEFAULT_TIMEOUT_SECONDS
    transport: RequestedTransport | None = None
    allow_annotations: bool = True
    """Whether the person may add the overall note (each question switches its own notes)."""

    def question(self, question_id: str) -> BatchQuestion | None:
        return next((item for item in self.questions if item.id == question_id), None)


class _BatchTop(BaseModel):
    """The batch's own fields, checked as a single request checks them."""

    model_config = ConfigDict(extra="forbid")

    title: Title
    timeout_seconds: int = Field(default=DEFAULT_TIMEOUT_SECONDS, ge=1)
    transport: RequestedTransport | None = None
    allow_annotations: bool = True
    allow_cancel: bool = True
    questions: object = None


def is_batch(arguments: Mapping[str, Any]) -> bool:
    """Whether tool arguments ask a batch (they hold `questions`)."""
    return "questions" in arguments


def parse_batch(arguments: Mapping[str, Any]) -> BatchRequest:
    """Validate a batch, raising `ChoicesError` that lists every problem of every question."""
    problems: list[str] = []
    mixed = [name for name in QUESTION_FIELDS if name in arguments]
    if mixed:
        problems.append(
            f"questions cannot be combined with single-question fields ({', '.join(mixed)}): "
            "put them inside each question, or leave questions out to ask one question"
        )
    top = {key: value for key, value in arguments.items() if key not in QUESTION_FIELDS}
    parsed_top: _BatchTop | None = None
    try:
        parsed_top = _BatchTop.model_validate(top)
    except ValidationError as error:
        problems += describe(error)
    title = parsed_top.title if parsed_top is not None else "untitled"
    questions = _questions(arguments.get("questions"), title, problems)
    if problems or parsed_top is None:
        raise ChoicesError(problems)
    return BatchRequest(
        title=parsed_top.title,
        questions=questions,
        timeout_seconds=parsed_top.timeout_seconds,
        transport=parsed_top.transport,
        allow_annotations=parsed_top.allow_annotations,
    )


def _questions(raw: object, title: str, problems: list[str]) -> list[BatchQuestion]:
    if not isinstance(raw, list):
        problems.append(
            f"questions must be a list of 1 to {MAX_QUESTIONS} questions, got {type(raw).__name__}"
        )
        return []
    if not 1 <= len(raw) <= MAX_QUESTIONS:
        problems.append(f"questions must have 1 to {MAX_QUESTIONS} items, got {len(raw)}")
    ids = [item.get("id") for item in raw if isinstance(item, Mapping)]
    repeated = [value for value, count in Counter(map(str, ids)).items() if count > 1]
    if repeated:
        problems.append(f"questions ids must be unique, repeated: {quote_all(repeated)}")
    parsed = []
    for index, item in enumerate(raw):
        question = _question(index, item, title, problems)
        if question is not None:
            parsed.append(question)
    return parsed


def _question(index: int, item: object, title: str, problems: list[str]) -> BatchQuestion | None:
    if not isinstance(item, Mapping):
        problems.append(f"questions[{index}] must be an object with id, prompt and selection_mode")
        return None
    question_id = item.get("id")
    valid_id = isinstance(question_id, str) and QUESTION_ID.fullmatch(question_id) is not None
    name = question_id if valid_id else f"questions[{index}]"
    own: list[str] = []
    if not valid_id:
        given = quote(question_id) if isinstance(question_id, str) else "nothing"
        own.append(
            "id must be 1 to 40 characters of letters, digits, _ and -, got "
            + (given if question_id is not None else "nothing")
        )
    header = item.get("header")
    if header is not None and not isinstance(header, str):
        own.append(f"header must be text, got {type(header).__name__}")
        header = None
    elif isinstance(header, str):
        header = header.strip() or None
        if header is not None and len(header) > HEADER_LIMIT:
            own.append(
                f"header must be at most {HEADER_LIMIT} characters (a short chip), "
                f"got {len(header)}"
            )
    misplaced = [key for key in item if key in BATCH_FIELDS]
    if misplaced:
        own.append(f"{', '.join(misplaced)} belongs at the top of the request, not in a question")
    fields = {
        key: value for key, value in item.items() if key not in ("id", "header", *BATCH_FIELDS)
    }
    request = None
    try:
        request = parse_request({**fields, "title": title})
    except ChoicesError as error:
        own += error.problems
    problems += [f"{name}: {problem}" for problem in own]
    if own or request is None:
        return None
    assert isinstance(question_id, str)
    return BatchQuestion(id=question_id, header=header, request=request)


Asked = ProvideChoiceRequest | BatchRequest
"""What one call asks: one question, or a batch of them."""
