"""The tests' clock (`provide_choice._test_clock`): off unless a test names its file; on, a question
asked in this process moves with it and times out through its own timer, at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from provide_choice import InteractionSettings, TimedOut, parse_request
from provide_choice._question import Interaction, PendingQuestion, QuestionRegistry
from provide_choice._test_clock import POLL_SECONDS, VARIABLE, follow, move_forward

REQUEST = parse_request(
    {
        "title": "Deploy",
        "prompt": "Which service first?",
        "selection_mode": "single",
        "options": [
            {"id": "api", "label": "API", "recommended": True},
            {"id": "web", "label": "Web"},
        ],
        "timeout_seconds": 100,
    }
)
SETTINGS = InteractionSettings(timeout_action="return_nothing")


@pytest.fixture
def clock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The clock's file, named as the end-to-end tests name it for every process they start."""
    path = tmp_path / "clock"
    monkeypatch.setenv(VARIABLE, str(path))
    return path


def asked(registry: QuestionRegistry) -> PendingQuestion:
    return registry.create(Interaction.start(REQUEST, SETTINGS), "web")


async def soon(condition: Callable[[], bool]) -> None:
    """Return once `condition()` holds: a few reads of the clock's file at most."""
    deadline = time.monotonic() + 2
    while not condition():
        assert time.monotonic() < deadline, "the clock's move was not followed"
        await asyncio.sleep(POLL_SECONDS / 5)


async def test_a_question_moves_with_the_clock_and_times_out_through_its_own_timer(
    clock: Path,
) -> None:
    question = asked(QuestionRegistry())
    started, ended = question.started, asyncio.ensure_future(question.wait())
    move_forward(clock, 40)
    await soon(lambda: question.seconds_left() < 61)
    assert question.seconds_left() > 59
    assert started - question.started == pytest.approx(40)
    assert not ended.done()
    move_forward(clock, 60)
    assert await asyncio.wait_for(ended, 1) == TimedOut(action="return_nothing")
    assert question.status == "finished"


async def test_regression_a_questions_surfaces_hear_of_a_move_at_once(clock: Path) -> None:
    # An open page's countdown followed a move only at its next periodic state, 5 s later: a test
    # that gave it 5 s to follow failed whenever the two met.
    question = asked(QuestionRegistry())
    heard: list[float] = []
    question.on_change(lambda changed: heard.append(changed.seconds_left()))
    move_forward(clock, 40)
    await soon(lambda: bool(heard))
    assert 59 < heard[0] < 61


async def test_a_follower_hears_only_the_moves_made_while_it_follows(clock: Path) -> None:
    move_forward(clock, 10)
    heard: list[float] = []
    stop_following = follow(heard.append)
    move_forward(clock, 5)
    await soon(lambda: heard == [5])
    stop_following()
    move_forward(clock, 5)
    await asyncio.sleep(POLL_SECONDS * 3)
    assert heard == [5]
    later = asked(QuestionRegistry())  # asked after those moves: its time starts from now
    assert later.seconds_left() > 99


async def test_without_the_variable_nothing_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    question = asked(QuestionRegistry())
    heard: list[float] = []
    follow(heard.append)
    move_forward(tmp_path / "clock", 60)
    await asyncio.sleep(POLL_SECONDS * 3)
    assert heard == []
    assert question.seconds_left() > 99
