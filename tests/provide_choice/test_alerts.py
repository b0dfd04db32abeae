"""Alerts: the terminal's sequence for each terminal family, and push alerts delivered by apprise
to a real JSON webhook on 127.0.0.1 (what they say, `title_only`, the reminder, `alert_after_seconds`,
a delivery that fails or never answers: one stderr line, noted, the question never waits)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from extras import NEEDS_PUSH_EXTRA
from prompts import DATABASE_REQUEST
from waiting import until
from webhook import Webhook, refused_address, silent_address, webhook

from provide_choice import Answered, InteractionSettings, parse_request
from provide_choice._alerts import QuestionAlerts, _push
from provide_choice._contract._outcomes import NobodyAsked
from provide_choice._question import Interaction, PendingQuestion, QuestionRegistry
from provide_choice._transports._terminal_view._alert_sequence import terminal_alert

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
PAGE = "http://127.0.0.1:8123/choice/0123abcd"


@pytest.mark.parametrize(
    ("environ", "written"),
    [
        ({"TERM_PROGRAM": "iTerm.app"}, f"{ESC}]9;Database{BEL}"),
        ({"TERM_PROGRAM": "ghostty"}, f"{ESC}]9;Database{BEL}"),
        ({"TERM_PROGRAM": "WezTerm"}, f"{ESC}]9;Database{BEL}"),
        ({"WT_SESSION": "5f1c"}, f"{ESC}]9;Database{BEL}"),
        ({"VTE_VERSION": "7600"}, f"{ESC}]777;notify;provide-choice;Database{BEL}"),
        ({"TERM": "foot"}, f"{ESC}]777;notify;provide-choice;Database{BEL}"),
        ({"TERM": "rxvt-unicode-256color"}, f"{ESC}]777;notify;provide-choice;Database{BEL}"),
        ({"KITTY_WINDOW_ID": "1", "TERM": "xterm-kitty"}, f"{ESC}]99;;Database{ST}"),
        ({"TERM": "xterm-256color"}, BEL),
        ({}, BEL),
        # Inside tmux: the outer terminal from what it leaves, every ESC doubled in passthrough.
        (
            {"TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "tmux", "LC_TERMINAL": "iTerm2"},
            f"{ESC}Ptmux;{ESC}{ESC}]9;Database{BEL}{ST}",
        ),
        (
            {"TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "KITTY_WINDOW_ID": "2"},
            f"{ESC}Ptmux;{ESC}{ESC}]99;;Database{ESC}{ESC}\\{ST}",
        ),
        (
            {"TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "VTE_VERSION": "7600"},
            f"{ESC}Ptmux;{ESC}{ESC}]777;notify;provide-choice;Database{BEL}{ST}",
        ),
        (
            {"TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "WT_SESSION": "5f1c"},
            f"{ESC}Ptmux;{ESC}{ESC}]9;Database{BEL}{ST}",
        ),
        (
            {"TMUX": "/tmp/t", "TERM_PROGRAM": "ghostty"},
            f"{ESC}Ptmux;{ESC}{ESC}]9;Database{BEL}{ST}",
        ),
        ({"TMUX": "/tmp/t", "TERM_PROGRAM": "tmux", "TERM": "tmux-256color"}, BEL),
    ],
)
def test_the_terminal_is_asked_to_notify_in_the_sequence_its_family_reads(
    environ: dict[str, str], written: str
) -> None:
    assert terminal_alert("Database", environ) == written


def test_agent_text_in_a_terminal_alert_holds_no_control_character_and_at_most_100() -> None:
    title = f"Data{ESC}]0;pwned{BEL}base{ESC}[2J\u202e\n" + "x" * 200
    written = terminal_alert(title, {"TERM_PROGRAM": "iTerm.app"})
    text = written.removeprefix(f"{ESC}]9;").removesuffix(BEL)
    assert ESC not in text
    assert BEL not in text
    assert "\u202e" not in text
    assert text.startswith("Data]0;pwnedbase[2J x")
    assert len(text) == 100
    assert terminal_alert(f"{ESC}]0;x{BEL}", {}) == BEL


def test_a_semicolon_cannot_end_the_fields_of_osc_777_early() -> None:
    assert (
        terminal_alert("a;b", {"VTE_VERSION": "1"}) == f"{ESC}]777;notify;provide-choice;a,b{BEL}"
    )


pytest.importorskip("apprise", reason=NEEDS_PUSH_EXTRA)


@pytest.fixture
def hook() -> Iterator[Webhook]:
    with webhook() as running:
        yield running


def ask(
    registry: QuestionRegistry,
    settings: InteractionSettings,
    *,
    seconds: float = 300,
    transport: str = "web",
    **changes: Any,
) -> PendingQuestion:
    """A question shown on its page (`PAGE`), as the page transport shows one."""
    interaction = Interaction.start(parse_request(DATABASE_REQUEST | changes), settings)
    interaction = Interaction(interaction.asked, interaction.settings, time.monotonic() + seconds)
    question = registry.create(interaction, transport)
    if transport == "web":
        question.show_at(PAGE)
    question.mark_shown()
    return question


def alerted(environ: dict[str, str] | None = None, **alerts: Any) -> QuestionRegistry:
    return QuestionRegistry(recorder=QuestionAlerts(environ=environ or {}, **alerts))


async def test_a_new_question_pushes_its_title_prompt_options_time_left_and_page(
    hook: Webhook,
) -> None:
    registry = alerted()
    question = ask(registry, InteractionSettings(notify_urls=(hook.address,)))
    await until(lambda: len(hook.received) == 1, "the alert reached the webhook")
    (alert,) = hook.received
    assert alert["title"] == "Question: Database"
    lines = alert["message"].splitlines()
    assert lines[0] == "The app needs storage and none is configured."
    assert lines[1] == "Options: PostgreSQL, SQLite"
    assert lines[2] in ("299 seconds left.", "300 seconds left.")
    assert lines[3] == f"Answer at {PAGE}."
    question.finish(Answered(selected_ids=["pg"]))
    await asyncio.sleep(0.3)
    assert len(hook.received) == 1, "one alert per question"


async def test_the_environment_lists_push_addresses_too(hook: Webhook) -> None:
    registry = alerted({"PROVIDE_CHOICE_NOTIFY": f"  {hook.address}  {hook.address}"})
    ask(registry, InteractionSettings(), transport="terminal")
    await until(lambda: len(hook.received) == 1, "the alert reached the webhook")
    assert hook.received[0]["message"].endswith("Answer in the terminal.")
    await asyncio.sleep(0.3)
    assert len(hook.received) == 1, "an address listed twice gets one alert"


async def test_title_only_keeps_the_prompt_the_options_and_the_address_private(
    hook: Webhook,
) -> None:
    registry = alerted()
    settings = InteractionSettings(notify_urls=(hook.address,), notify_detail="title_only")
    ask(registry, settings, prompt="Secret plans for **Q3**")
    await until(lambda: len(hook.received) == 1, "the alert reached the webhook")
    assert hook.received[0]["title"] == "Question: Database"
    assert hook.received[0]["message"] == ""


async def test_a_reminder_goes_once_when_a_fifth_of_the_time_is_left(hook: Webhook) -> None:
    registry = alerted()
    question = ask(registry, InteractionSettings(notify_urls=(hook.address,)), seconds=3)
    await until(lambda: len(hook.received) == 1, "the alert reached the webhook")
    first = time.monotonic()
    await until(lambda: len(hook.received) == 2, "the reminder reached the webhook", 5)
    assert 1.8 < time.monotonic() - question.started < 3
    assert time.monotonic() - first > 1.5
    reminder = hook.received[1]
    assert reminder["title"] == "Question: Database"
    assert reminder["message"].startswith("Reminder: this question still waits.\n")
    await question.wait()
    await asyncio.sleep(0.3)
    assert len(hook.received) == 2


async def test_alert_after_seconds_waits_and_a_touched_question_sends_none(hook: Webhook) -> None:
    registry = alerted()
    settings = InteractionSettings(notify_urls=(hook.address,), alert_after_seconds=1)
    touched = ask(registry, settings, title="Touched")
    untouched = ask(registry, settings, title="Untouched")
    touched.touch()
    await asyncio.sleep(0.8)
    assert hook.received == []
    await until(lambda: len(hook.received) == 1, "the untouched question's alert went")
    assert hook.received[0]["title"] == "Question: Untouched"
    assert time.monotonic() - untouched.started >= 1
    await asyncio.sleep(0.3)
    assert len(hook.received) == 1


async def test_switched_off_push_sends_nothing(hook: Webhook) -> None:
    registry = alerted()
    settings = InteractionSettings(notify_urls=(hook.address,), alerts={"push": False})
    ask(registry, settings)
    await asyncio.sleep(0.6)
    assert hook.received == []


async def test_a_question_nobody_is_asked_alerts_nobody(hook: Webhook) -> None:
    registry = alerted()
    settings = InteractionSettings(notify_urls=(hook.address,))
    interaction = Interaction.start(parse_request(DATABASE_REQUEST | {"title": "In CI"}), settings)
    registry.settle(
        interaction, NobodyAsked(reason="the server runs unattended", action="return_defaults")
    )
    ask(registry, settings, title="Asked")
    await until(lambda: len(hook.received) == 1, "the asked question's alert went")
    await asyncio.sleep(0.3)
    assert [alert["title"] for alert in hook.received] == ["Question: Asked"]


async def test_agent_text_arrives_in_a_push_as_plain_text(hook: Webhook) -> None:
    registry = alerted()
    title = f"<b>Data</b>{ESC}[31m **base**{BEL}"
    prompt = f"<script>alert(1)</script> *keep* {ESC}]8;;http://x{ESC}\\link"
    ask(registry, InteractionSettings(notify_urls=(hook.address,)), title=title, prompt=prompt)
    await until(lambda: len(hook.received) == 1, "the alert reached the webhook")
    assert hook.received[0]["title"] == "Question: <b>Data</b>[31m **base**"
    assert hook.received[0]["message"].splitlines()[0] == (
        "<script>alert(1)</script> *keep* ]8;;http://x\\link"
    )


async def test_a_refused_push_costs_one_stderr_line_and_a_note_naming_it_without_its_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    notes: list[tuple[str, str]] = []
    registry = alerted(failed=lambda question, problem: notes.append((question.id, problem)))
    address = refused_address().replace("://", "://agent:secret-password@")
    shown = address.replace("secret-password", "***")
    question = ask(registry, InteractionSettings(notify_urls=(address,)))
    await until(lambda: bool(notes), "the failure was noted", 10)
    assert question.finish(Answered(selected_ids=["pg"]))
    assert notes == [(question.id, f"push alert: {shown} did not take it")]
    errors = capsys.readouterr().err.splitlines()
    assert errors == [
        "provide-choice: warning: the push alert for 'Database' was not delivered: "
        f"{shown} did not take it"
    ]
    assert "secret-password" not in errors[0]


async def test_of_several_addresses_only_those_that_failed_are_named(hook: Webhook) -> None:
    notes: list[str] = []
    registry = alerted(failed=lambda question, problem: notes.append(problem))
    refused = refused_address()
    ask(registry, InteractionSettings(notify_urls=(hook.address, refused)))
    await until(lambda: bool(notes), "the failure was noted", 10)
    assert len(hook.received) == 1
    assert notes == [f"push alert: {refused} did not take it"]


@pytest.mark.parametrize(
    ("address", "shown"),
    [
        ("json://agent:pa55@127.0.0.1:8123/alert", "json://agent:***@127.0.0.1:8123/alert"),
        ("tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/4242", "tgram://***/4242"),
        ("ntfy://alice:pa55@ntfy.example.org/topic", "ntfy://alice:***@ntfy.example.org/topic"),
        ("slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ", "slack://***/***/***"),
    ],
)
def test_an_address_is_named_with_every_secret_part_hidden(address: str, shown: str) -> None:
    apprise = pytest.importorskip("apprise", reason=NEEDS_PUSH_EXTRA)
    notifier = apprise.Apprise()
    assert notifier.add(address)
    assert _push.private_address(notifier, address) == shown


async def test_a_push_address_that_never_answers_is_given_up_within_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_push, "DELIVERY_SECONDS", 0.5)
    notes: list[str] = []
    registry = alerted(failed=lambda question, problem: notes.append(problem))
    with silent_address() as address:
        ask(registry, InteractionSettings(notify_urls=(address,)))
        started = time.monotonic()
        await until(lambda: bool(notes), "the delivery was given up", 5)
    assert notes == [f"push alert: {address} did not answer within 0.5 s"]
    assert time.monotonic() - started < 2


async def test_an_address_apprise_cannot_use_is_named_by_its_scheme_only() -> None:
    notes: list[str] = []
    registry = alerted(failed=lambda question, problem: notes.append(problem))
    ask(registry, InteractionSettings(notify_urls=("nonsense://secret-token@host",)))
    await until(lambda: bool(notes), "the address was refused")
    assert notes == ["push alert: nonsense://… is not an address apprise can send to"]
