"""A batch in the terminal flow in-process, keys typed ahead into a pipe: what it reports and keeps.

The screens themselves are pinned by the pty tests in e2e/terminal; these check the values that
pass between the flow, the open question and `_batch_meaning`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from provide_choice import Interaction, InteractionSettings, QuestionRegistry
from provide_choice._contract._batch import BatchRequest, parse_batch
from provide_choice._contract._batch_meaning import BatchSubmission, kept_answer
from provide_choice._contract._meaning import Submission
from provide_choice._contract._outcomes import Answered, Cancelled, TimedOut
from provide_choice._question import PendingQuestion
from provide_choice._transports._terminal_view._batch_flow import BatchReported, run_batch_flow

ENTER, DOWN, SPACE, BACK, CTRL_C = "\r", "\x1b[B", " ", "\x1b[Z", "\x03"


@pytest.fixture
def keyboard() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        yield pipe


def options(*ids: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = [{"id": option_id, "label": option_id} for option_id in ids]
    listed[0]["recommended"] = True
    return listed


def batch(**changes: Any) -> BatchRequest:
    return parse_batch(
        {
            "title": "Release",
            "questions": [
                {
                    "id": "db",
                    "header": "Database",
                    "prompt": "Which database?",
                    "selection_mode": "single",
                    "options": options("pg", "lite", "duck"),
                },
                {
                    "id": "features",
                    "prompt": "Which features?",
                    "selection_mode": "multi",
                    "options": options("search", "export", "sync"),
                },
                {"id": "name", "prompt": "Its name?", "selection_mode": "text_input"},
            ],
        }
        | changes
    )


async def run(asked: BatchRequest, seconds: float = 10) -> tuple[BatchReported, PendingQuestion]:
    question = QuestionRegistry().create(
        Interaction(asked, InteractionSettings(), time.monotonic() + seconds), "terminal"
    )

    async def keep(question_id: str, submission: Submission) -> None:
        item = asked.question(question_id)
        assert item is not None
        question.keep(question_id, kept_answer(submission, item.request, question.settings))

    return await run_batch_flow(asked, question, keep), question


async def test_each_question_in_turn_then_the_review_sends_them_all(keyboard: PipeInput) -> None:
    # Continue; digit 2 chooses SQLite; space and 3 tick search and sync; a name; the review sends.
    keyboard.send_text(ENTER + "2" + SPACE + "3" + ENTER + "orbit" + ENTER + ENTER)
    reported, _question = await run(batch())
    assert reported == BatchSubmission(
        answers={
            "db": Submission(selected_ids=["lite"]),
            "features": Submission(selected_ids=["search", "sync"]),
            "name": Submission(custom_input="orbit"),
        }
    )


async def test_going_back_opens_the_earlier_answer_and_changes_it(keyboard: PipeInput) -> None:
    # Q1: 1 (pg); Q2: space; on Q3, Shift-Tab back to Q2, whose tick is still there: untick it,
    # tick export, Enter; Q3 again; the review sends.
    keyboard.send_text(ENTER + "1" + SPACE + ENTER + BACK)
    keyboard.send_text(SPACE + "2" + ENTER + "orbit" + ENTER + ENTER)
    reported, _question = await run(batch())
    assert isinstance(reported, BatchSubmission)
    assert reported.answers["db"].selected_ids == ["pg"]
    assert reported.answers["features"].selected_ids == ["export"]


async def test_the_review_goes_back_to_the_answer_picked_and_returns_to_the_review(
    keyboard: PipeInput,
) -> None:
    # Down to the first answer on the review, Enter: Q1 again, 3 (duck), straight back to review.
    keyboard.send_text(ENTER + "1" + SPACE + ENTER + "orbit" + ENTER)
    keyboard.send_text(DOWN + ENTER + "3" + ENTER)
    reported, _question = await run(batch())
    assert isinstance(reported, BatchSubmission)
    assert reported.answers["db"].selected_ids == ["duck"]
    assert reported.answers["name"].custom_input == "orbit"


async def test_a_cancel_half_way_reports_the_cancel_and_the_question_keeps_the_answers_given(
    keyboard: PipeInput,
) -> None:
    keyboard.send_text(ENTER + "2" + CTRL_C)
    reported, question = await run(batch())
    assert reported == Cancelled()
    assert question.kept == {"db": Answered(selected_ids=["lite"])}


async def test_the_deadline_half_way_reports_the_timeout(keyboard: PipeInput) -> None:
    keyboard.send_text(ENTER + "2")
    reported, question = await run(batch(timeout_seconds=1), seconds=1.5)
    assert isinstance(reported, TimedOut)
    assert question.kept == {"db": Answered(selected_ids=["lite"])}


async def test_a_batch_of_one_sends_on_its_answer_without_a_review(keyboard: PipeInput) -> None:
    keyboard.send_text(ENTER + "3")
    asked = parse_batch(
        {
            "title": "Release",
            "questions": [
                {
                    "id": "db",
                    "prompt": "Which?",
                    "selection_mode": "single",
                    "options": options("pg", "lite", "duck"),
                },
            ],
        }
    )
    reported, _question = await run(asked)
    assert reported == BatchSubmission(answers={"db": Submission(selected_ids=["duck"])})


async def test_the_overall_note_belongs_to_the_batch_not_to_a_question(keyboard: PipeInput) -> None:
    keyboard.send_text(ENTER + "g" + "ask ops" + ENTER + "1" + SPACE + ENTER + "orbit" + ENTER)
    keyboard.send_text(ENTER)
    reported, _question = await run(batch())
    assert isinstance(reported, BatchSubmission)
    assert reported.global_annotation == "ask ops"
    assert all(answer.global_annotation is None for answer in reported.answers.values())
