"""The terminal flow in-process, keys typed ahead into a pipe: what its parts hand each other.

The screens themselves (texts, colours, a real terminal) are pinned by the pty tests in
e2e/terminal; these check the values that pass between the parts, fast and without a terminal.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from provide_choice import (
    Answered,
    Interaction,
    InteractionSettings,
    QuestionRegistry,
    TimedOut,
    parse_request,
)
from provide_choice._contract._meaning import ending_of
from provide_choice._contract._outcomes import Ending
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._transports._terminal_view._flow import run_terminal_flow

ENTER, DOWN, SPACE = "\r", "\x1b[B", " "


@pytest.fixture
def keyboard() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        yield pipe


def hybrid(*ids: str) -> ProvideChoiceRequest:
    options: list[dict[str, Any]] = [{"id": option_id, "label": option_id} for option_id in ids]
    options[0]["recommended"] = True
    return parse_request(
        {"title": "Storage", "prompt": "Which one?", "selection_mode": "hybrid", "options": options}
    )


async def answer(request: ProvideChoiceRequest, seconds: float = 10) -> Ending:
    """The flow reports what the person did; this is the answer that makes of it."""
    question = QuestionRegistry().create(
        Interaction(request, InteractionSettings(), time.monotonic() + seconds), "terminal"
    )
    reported = await run_terminal_flow(request, question)
    return ending_of(reported, request, question.settings)


async def test_a_note_key_on_the_own_answer_entry_is_ignored_and_the_list_comes_back_as_it_was(
    keyboard: PipeInput,
) -> None:
    # Continue; point at "type my own answer"; n (ignored there); g and an overall note; the list
    # returns pointing at the same entry, which space ticks and Enter submits.
    keyboard.send_text(ENTER + DOWN * 2 + "n" + "g" + "later" + ENTER + SPACE + ENTER)
    keyboard.send_text("Redis" + ENTER)
    ending = await answer(hybrid("pg", "lite"))
    assert ending == Answered(custom_input="Redis", global_annotation="later")


async def test_an_option_id_that_names_the_own_answer_entry_is_still_an_option(
    keyboard: PipeInput,
) -> None:
    keyboard.send_text(ENTER + SPACE + ENTER)
    ending = await answer(hybrid("ENTRY", "own_answer"))
    assert ending == Answered(selected_ids=["ENTRY"])


async def test_a_deadline_already_passed_ends_the_flow_before_any_screen(
    keyboard: PipeInput,
) -> None:
    ending = await answer(hybrid("pg", "lite"), seconds=-1)
    assert isinstance(ending, TimedOut)


async def test_regression_hybrid_with_nothing_chosen_sends_the_suggestion_as_every_surface_does(
    keyboard: PipeInput,
) -> None:
    # The terminal answered "Submitted with nothing selected" where the page sent the suggestion.
    keyboard.send_text(ENTER + ENTER)
    request = hybrid("pg", "lite").model_copy(update={"placeholder": "Use SQLite for now"})
    ending = await answer(request)
    assert ending == Answered(custom_input="Use SQLite for now", placeholder_used=True)
