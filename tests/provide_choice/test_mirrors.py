"""A transport that follows every question (`Mirrors`) through the public seam: it is an alert
channel from its registration (accepted in the settings, offered with its label, on by default),
the server's alerts hand it each question asked elsewhere once it waited, never one asked on it,
none while its channel is off or the person is at the question; its answer ends the question for
every surface, naming it; and a mirror that fails costs one line and a note in the history."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from prompts import DATABASE_REQUEST
from waiting import until

from present_choices import ChoicesError
from present_choices._translation import ENGLISH
from provide_choice import Answered, InteractionSettings, QuestionRegistry, parse_request
from provide_choice._alerts import QuestionAlerts
from provide_choice._contract._batch_response import respond
from provide_choice._contract._setting_changes import apply_changes, shown_settings
from provide_choice._question import Recorders
from provide_choice._transports._question_view._shown import setting_fields
from provide_choice._transports._registry import build_transports
from provide_choice.transports import (
    Caller,
    Interaction,
    PendingQuestion,
    TransportKind,
    TransportSetup,
    register_transport,
)


class Echo:
    """Follows every question, and answers each it is handed with its first option."""

    kind = TransportKind("echo", "Echo", preference="Echo")
    mirror_label = "In the echo (a test's mirror)"
    cancelled_with_the_call = True
    bounded_wait = True
    mirrored: ClassVar[list[str]] = []
    fails = False

    @classmethod
    def build(cls, setup: TransportSetup) -> Echo:
        return cls()

    async def show(self, question: PendingQuestion, caller: Caller) -> None:
        return None

    async def mirror(self, question: PendingQuestion) -> None:
        if self.fails:
            raise RuntimeError("the echo is broken")
        self.mirrored.append(question.id)
        first = question.interaction.request.options or ()
        question.finish(Answered(selected_ids=[first[0].id], via="echo"))


@pytest.fixture
def echo() -> Iterator[type[Echo]]:
    Echo.mirrored, Echo.fails = [], False
    unregister = register_transport(Echo)
    yield Echo
    unregister()


class Failures:
    def __init__(self) -> None:
        self.noted: list[tuple[str, str]] = []

    def __call__(self, question: PendingQuestion, problem: str) -> None:
        self.noted.append((question.id, problem))


def server(failures: Failures | None = None) -> TransportSetup:
    alerts = QuestionAlerts(failed=failures, environ={})
    setup = TransportSetup(QuestionRegistry(recorder=Recorders(alerts)), alerts=alerts)
    build_transports(setup)
    return setup


def ask(setup: TransportSetup, transport: str = "web", **settings: Any) -> PendingQuestion:
    interaction = Interaction.start(
        parse_request(DATABASE_REQUEST), InteractionSettings.model_validate(settings)
    )
    question = setup.questions.create(interaction, transport)
    question.mark_shown()
    return question


def test_a_mirror_is_an_alert_channel_on_by_default_with_its_label(echo: type[Echo]) -> None:
    settings = InteractionSettings()
    assert settings.alerts.on("echo")
    assert shown_settings(settings)["alerts"]["echo"] is True
    changed, saved = apply_changes(settings, {"alerts": {"echo": False}})
    assert not changed.alerts.on("echo")
    assert changed.alerts.on("push")
    assert saved == {"alerts": changed.alerts}
    channels = setting_fields(ENGLISH, changed)["alerts"]["channels"]
    assert ["echo", "In the echo (a test's mirror)"] in channels


def test_an_unknown_channel_is_refused_naming_the_mirrors_too(echo: type[Echo]) -> None:
    with pytest.raises(ChoicesError) as refused:
        apply_changes(InteractionSettings(), {"alerts": {"fax": True}})
    assert refused.value.problems == [
        "alerts: 'fax' is not a channel; channels: terminal, desktop, browser, push, slack, telegram, echo"
    ]
    with pytest.raises(ChoicesError):
        apply_changes(InteractionSettings(), {"alerts": {"echo": "yes"}})


def test_the_channel_goes_when_its_transport_is_unregistered() -> None:
    unregister = register_transport(Echo)
    assert "echo" in shown_settings(InteractionSettings())["alerts"]
    unregister()
    assert "echo" not in shown_settings(InteractionSettings())["alerts"]
    with pytest.raises(ChoicesError):
        apply_changes(InteractionSettings(), {"alerts": {"echo": False}})


def test_a_channel_of_a_transport_not_installed_is_kept_as_written() -> None:
    settings = InteractionSettings.model_validate({"alerts": {"gone": False}})
    assert settings.model_dump(mode="json")["alerts"]["gone"] is False
    assert "gone" not in shown_settings(settings)["alerts"]


async def test_a_question_asked_elsewhere_is_mirrored_and_its_answer_names_the_mirror(
    echo: type[Echo],
) -> None:
    setup = server()
    question = ask(setup)
    outcome = await asyncio.wait_for(question.wait(), 5)
    assert echo.mirrored == [question.id]
    response = respond(question.interaction.asked, outcome, question.transport)
    assert response.selection.transport == "echo"
    assert response.answered_by == "person"


async def test_a_question_asked_on_the_mirror_itself_is_not_mirrored(echo: type[Echo]) -> None:
    setup = server()
    ask(setup, transport="echo")
    await asyncio.sleep(0.5)
    assert echo.mirrored == []


async def test_no_mirror_while_its_channel_is_off_or_the_person_is_at_the_question(
    echo: type[Echo],
) -> None:
    setup = server()
    ask(setup, alerts={"echo": False})
    touched = ask(setup, alert_after_seconds=1)
    touched.touch()
    await asyncio.sleep(1.4)
    assert echo.mirrored == []


async def test_the_mirror_waits_alert_after_seconds(echo: type[Echo]) -> None:
    setup = server()
    started = time.monotonic()
    question = ask(setup, alert_after_seconds=1)
    await asyncio.wait_for(question.wait(), 5)
    assert time.monotonic() - started >= 1


async def test_a_mirror_that_fails_costs_one_line_and_a_note(
    echo: type[Echo], capsys: pytest.CaptureFixture[str]
) -> None:
    echo.fails = True
    failures = Failures()
    setup = server(failures)
    question = ask(setup)
    await until(lambda: failures.noted != [], "the failure was noted")
    assert failures.noted == [(question.id, "echo: RuntimeError: the echo is broken")]
    assert capsys.readouterr().err == (
        "provide-choice: warning: echo could not show 'Database': RuntimeError: the echo is "
        "broken\n"
    )
    assert question.outcome is None
