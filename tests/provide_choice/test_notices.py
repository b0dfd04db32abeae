"""What the server says goes on one path (`provide_choice._notices`): at once on stderr, or, while a
question is drawn in a terminal, held for its status line and written whole once the screen is
gone, in order, whichever thread said it."""

from __future__ import annotations

import logging
import threading

import pytest

from provide_choice._notices import held, held_lines, say, warn


def test_a_line_said_while_nothing_is_drawn_goes_to_stderr_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    warn("the history is locked")
    assert capsys.readouterr().err == "provide-choice: warning: the history is locked\n"
    assert held_lines() == ()


def test_lines_said_while_a_screen_is_drawn_wait_for_it_to_be_gone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    redraws: list[str] = []
    with held(lambda: redraws.append("redraw")):
        warn("first")
        thread = threading.Thread(target=say, args=("provide-choice: second",))
        thread.start()
        thread.join()
        assert capsys.readouterr().err == ""
        assert held_lines() == ("provide-choice: warning: first", "provide-choice: second")
        assert redraws == ["redraw", "redraw"]
    assert capsys.readouterr().err == "provide-choice: warning: first\nprovide-choice: second\n"
    assert held_lines() == ()


def test_the_lines_are_written_when_the_last_of_two_holds_ends(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outer = held(lambda: None)
    outer.__enter__()
    with held(lambda: None):
        warn("said")
    outer.__exit__(None, None, None)
    assert capsys.readouterr().err == "provide-choice: warning: said\n"


def test_a_library_warning_without_a_handler_waits_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    logger = logging.getLogger("a.library.without.handlers")
    logger.propagate = False
    try:
        with held(lambda: None):
            logger.warning("the connection was reset")
            assert capsys.readouterr().err == ""
            assert held_lines() == ("the connection was reset",)
    finally:
        logger.propagate = True
    assert capsys.readouterr().err == "the connection was reset\n"


def test_a_plugins_warning_through_the_alerts_takes_the_same_path(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Telegram and Slack say a service away through the seam's Alerts.warn.
    from provide_choice._alerts import QuestionAlerts

    with held(lambda: None):
        QuestionAlerts().warn("telegram is unreachable")
        assert held_lines() == ("provide-choice: warning: telegram is unreachable",)
        assert capsys.readouterr().err == ""
    assert capsys.readouterr().err == "provide-choice: warning: telegram is unreachable\n"
