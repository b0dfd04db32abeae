"""One question from settings to summary line: the order of the screens, and how the flow ends.

The screens themselves live beside this module: the settings editor, the option list (with its note
screen), the text answer; `Screen` is the frame they all run in.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from prompt_toolkit import print_formatted_text
from prompt_toolkit.application import create_app_session, get_app_session
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import create_input
from prompt_toolkit.output import create_output

from present_choices._stopping import signals_handled
from present_choices._translation import Translation
from provide_choice._contract._batch import Asked
from provide_choice._contract._meaning import Submission, ending_of
from provide_choice._contract._outcomes import Cancelled, Ending, TimedOut
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._notices import held
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._alert import alerting
from provide_choice._transports._terminal_view._closing import closing_line
from provide_choice._transports._terminal_view._option_list import OptionList
from provide_choice._transports._terminal_view._screen import DeadlinePassed, Screen
from provide_choice._transports._terminal_view._settings_editor import SettingsEditor
from provide_choice._transports._terminal_view._state import QuestionState
from provide_choice._transports._terminal_view._style import STYLE
from provide_choice._transports._terminal_view._text_answer import answer_in_text


@contextmanager
def terminal_session(output: TextIO) -> Iterator[None]:
    """Prompts inside read the keyboard on stdin and draw on `output` (stdout in the server, the
    terminal itself in `provide-choice ask`, whose stdout carries only the JSON answer). What the
    server says meanwhile is held: shown in the screens' status line, written once it ends."""
    with create_app_session(
        input=create_input(sys.stdin), output=create_output(stdout=output)
    ) as session:

        def redraw() -> None:
            if session.app is not None:
                session.app.invalidate()

        with held(redraw):
            yield


NEXT_SCREEN_SECONDS = 0.05
"""How often a stop signal that came between two screens looks for the next one to end."""


@contextmanager
def signals_cancel() -> Iterator[None]:
    """Within (in the flow's task, inside `terminal_session`): SIGINT and SIGTERM cancel the
    question as the person's Ctrl-C does. The screen showing ends, giving the terminal back as it
    was, the flow prints its summary line and reports `Cancelled`; a signal that comes between two
    screens ends the next one as it opens. So a process stopped from outside never leaves the
    terminal in raw mode, nor the question waiting for an answer that cannot come."""
    loop = asyncio.get_running_loop()
    session = get_app_session()
    flowing = True

    def end_screen() -> None:
        application = session.app
        if application is not None and application.is_running and not application.is_done:
            application.exit(exception=KeyboardInterrupt(), style="class:aborting")
        elif flowing:
            loop.call_later(NEXT_SCREEN_SECONDS, end_screen)

    def stop(_number: int) -> None:
        loop.call_soon_threadsafe(end_screen)

    with signals_handled(stop):
        try:
            yield
        finally:
            flowing = False


async def run_terminal_flow(
    request: ProvideChoiceRequest, question: LiveQuestion
) -> Submission | Cancelled | TimedOut:
    """Show the settings surface, then the question; print one summary line; return what the
    person did (what it means is `_contract._meaning`'s to say, here for the summary line too).

    `question` is the open question: its settings and deadline are read from it, and each setting
    the person changes goes to it (`apply_settings`), which may move the deadline later.
    Cancellation of the calling task closes the prompt.
    """
    state = QuestionState(request, question)
    reported: Submission | Cancelled | TimedOut
    try:
        with alerting(question, request.title):
            reported = await _ask(state)
    except KeyboardInterrupt:
        reported = Cancelled()
    except DeadlinePassed:
        reported = TimedOut(action=state.settings.timeout_action)
    ending = ending_of(reported, request, state.settings)
    print_closing_line(request, ending, state.translation)
    return reported


def print_closing_line(asked: Asked, ending: Ending, translation: Translation) -> None:
    """The one line a question leaves in the terminal once it ends, in the person's language."""
    line = closing_line(asked, ending, translation)
    print_formatted_text(FormattedText([("class:summary", line)]), style=STYLE)


async def _ask(state: QuestionState) -> Submission | Cancelled:
    if not await SettingsEditor(Screen(state), state.question, state.request, state).accept():
        return Cancelled()
    return await answer_question(state)


async def answer_question(state: QuestionState, draft: Submission | None = None) -> Submission:
    """The question's own screens, by mode, until the person answers it; `draft` is the answer
    they gave before (a batch's question they came back to)."""
    screen = Screen(state)
    if state.request.selection_mode == "text_input":
        return await answer_in_text(screen, state, draft)
    return await OptionList(screen, state).answer(draft)
