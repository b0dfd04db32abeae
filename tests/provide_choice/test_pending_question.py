"""Pending questions: single finish, attach once, deadline and retention without anyone waiting."""

from __future__ import annotations

import asyncio
import time

import pytest

from provide_choice import Answered, Cancelled, InteractionSettings, TimedOut, parse_request
from provide_choice._question import Interaction, PendingQuestion, QuestionRegistry

REQUEST = parse_request(
    {
        "title": "Deploy",
        "prompt": "Which service first?",
        "selection_mode": "single",
        "options": [
            {"id": "api", "label": "API", "recommended": True},
            {"id": "web", "label": "Web"},
        ],
        "default_selection_ids": ["api"],
    }
)


def interaction(seconds: float, settings: InteractionSettings | None = None) -> Interaction:
    start = Interaction.start(REQUEST, settings or InteractionSettings())
    return Interaction(start.request, start.settings, time.monotonic() + seconds)


def create(registry: QuestionRegistry, seconds: float = 30) -> PendingQuestion:
    return registry.create(interaction(seconds), "terminal_handoff")


async def test_ids_are_unique_and_carry_at_least_128_random_bits() -> None:
    registry = QuestionRegistry()
    ids = {create(registry).id for _ in range(100)}
    assert len(ids) == 100
    for question_id in ids:
        assert len(bytes.fromhex(question_id)) * 8 >= 128


async def test_regression_ids_never_start_with_a_dash_that_the_command_line_reads_as_an_option() -> (
    None
):
    # urlsafe base64 ids starting with "-" made `choice-terminal --session -x...` fail to parse.
    registry = QuestionRegistry()
    assert not any(create(registry).id.startswith("-") for _ in range(500))


async def test_the_first_finish_wins_and_every_waiter_gets_it() -> None:
    question = create(QuestionRegistry())
    waiters = [asyncio.ensure_future(question.wait()) for _ in range(2)]
    await asyncio.sleep(0)
    assert question.finish(Answered(selected_ids=["web"]))
    assert not question.finish(Cancelled())
    assert await asyncio.gather(*waiters) == [Answered(selected_ids=["web"])] * 2
    assert question.status == "finished"
    assert await question.wait() == Answered(selected_ids=["web"])


async def test_only_a_pending_question_can_be_attached_and_only_once() -> None:
    question = create(QuestionRegistry())
    assert await question.attach()
    assert question.status == "attached"
    assert not await question.attach()
    question.finish(Cancelled())
    assert not await question.attach()


async def test_at_the_deadline_it_times_out_by_itself_with_the_settings_timeout_action() -> None:
    registry = QuestionRegistry()
    unwatched = registry.create(
        interaction(0.05, InteractionSettings(timeout_action="return_nothing")), "web"
    )
    finished: list[PendingQuestion] = []
    unwatched.on_finish(finished.append)
    await asyncio.sleep(0.15)
    assert unwatched.status == "finished"
    assert unwatched.outcome == TimedOut(action="return_nothing")
    assert finished == [unwatched]
    assert await unwatched.wait() == TimedOut(action="return_nothing")


async def test_the_timeout_action_follows_settings_changed_while_it_is_shown() -> None:
    question = create(QuestionRegistry(), seconds=0.05)
    await question.apply_settings({"timeout_action": "return_nothing"})
    assert await question.wait() == TimedOut(action="return_nothing")


async def test_a_timeout_override_set_while_it_is_shown_gives_at_least_that_long() -> None:
    question = create(QuestionRegistry(), seconds=0.05)
    await question.apply_settings({"timeout_override_seconds": 5})
    await asyncio.sleep(0.15)
    assert question.status == "pending"
    assert 4 < question.seconds_left() <= 5
    assert question.interaction.settings.timeout_override_seconds == 5


async def test_extending_the_deadline_moves_the_timeout_later_but_never_earlier() -> None:
    question = create(QuestionRegistry(), seconds=0.05)
    question.extend_deadline(0.3)
    await asyncio.sleep(0.15)
    assert question.status == "pending"
    question.extend_deadline(0.01)  # shorter than what is left: the deadline stays
    assert question.seconds_left() > 0.05
    async with asyncio.timeout(2):
        assert await question.wait() == TimedOut(action="return_defaults")
    assert question.seconds_left() == 0


async def test_a_cancelled_wait_leaves_the_question_for_a_later_wait() -> None:
    question = create(QuestionRegistry())
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.05):
            await question.wait()
    assert question.status == "pending"
    question.finish(Answered(selected_ids=["api"]))
    assert await question.wait() == Answered(selected_ids=["api"])


async def test_pop_consumes_and_finished_questions_never_consumed_are_dropped() -> None:
    registry = QuestionRegistry(retention_seconds=0.05)
    consumed, forgotten, pending = create(registry), create(registry), create(registry)
    assert registry.pop(consumed.id) is consumed
    assert registry.get(consumed.id) is None
    assert registry.pop(consumed.id) is None
    forgotten.finish(Cancelled())
    await asyncio.sleep(0.15)
    assert registry.get(forgotten.id) is None
    assert registry.get(pending.id) is pending
    assert len(registry) == 1


async def test_on_finish_of_a_finished_question_runs_at_once() -> None:
    question = create(QuestionRegistry())
    question.finish(Cancelled())
    seen: list[PendingQuestion] = []
    question.on_finish(seen.append)
    assert seen == [question]
