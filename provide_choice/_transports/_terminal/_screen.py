"""The frame every screen of the flow runs in: header, deadline, footer, erased when done.

questionary builds a screen's application; `Screen.show` rebuilds it the flow's way before running
it: the question's title and prompt above, the keys it answers to, the time left (and a refused
submission) below, our keys merged in, a redraw each second for the countdown, and an exit with
`DeadlinePassed` when time runs out. Ctrl-C stays questionary's: it raises `KeyboardInterrupt` out
of the screen. The footer is laid out for the terminal's width at every redraw, so a resized window
never breaks a key's hint in two.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import cast

import questionary
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl

from provide_choice._transports._terminal._keys import (
    GuardedSubmit,
    ListKeys,
    SubmitCheck,
    list_control,
    wrap_hints,
)
from provide_choice._transports._terminal._markdown import markdown_text
from provide_choice._transports._terminal._state import QuestionState


class DeadlinePassed(Exception):
    """Raised out of a screen when the question's deadline passes while it is shown."""


class Screen:
    """Runs questionary questions under one question's deadline, framed by its header and footer."""

    def __init__(self, state: QuestionState) -> None:
        self.state = state

    async def show(
        self,
        question: questionary.Question,
        *,
        list_keys: ListKeys | None = None,
        check: SubmitCheck | None = None,
        hints: Sequence[str] = (),
    ) -> object:
        """Run one screen; its answer is a value the question was built with (or a list of them, or
        what one of `list_keys` exits with). For a list, `check` decides whether Enter may submit
        the ticked values. `hints` name the keys the screen answers to ("Enter submit"), in the
        footer, above the time left (which names Ctrl-C)."""
        if time.monotonic() >= self.state.deadline:
            raise DeadlinePassed
        application = question.application
        control = list_control(application.layout)
        guard = None if check is None or control is None else GuardedSubmit(control, check)
        bindings = [application.key_bindings or KeyBindings()]
        if list_keys is not None and control is not None:
            bindings.append(list_keys(control))
        if guard is not None:
            bindings.append(guard.key_bindings())
        application.key_bindings = merge_key_bindings(bindings)
        application.layout = self._framed(application.layout, guard, hints)
        application.erase_when_done = True
        application.refresh_interval = 1.0
        return await self._run_until_deadline(application)

    async def answer(self, question: questionary.Question) -> str:
        """Run a text screen, or a list whose values are all strings (the flow's own menus)."""
        return cast(str, await self.show(question))

    def _framed(self, layout: Layout, guard: GuardedSubmit | None, hints: Sequence[str]) -> Layout:
        def footer() -> StyleAndTextTuples:
            width = get_app().output.get_size().columns
            keys: StyleAndTextTuples = [("class:instruction", wrap_hints(hints, width)), ("", "\n")]
            problem = guard.refusal() if guard is not None else None
            refused: StyleAndTextTuples = [("", "\n"), ("class:refusal", f"✗ {problem}")]
            return (keys if hints else []) + self._time_left(width) + (refused if problem else [])

        return Layout(
            HSplit(
                [
                    Window(
                        FormattedTextControl(self._header), wrap_lines=True, dont_extend_height=True
                    ),
                    layout.container,
                    Window(FormattedTextControl(footer), wrap_lines=True, dont_extend_height=True),
                ]
            ),
            focused_element=layout.current_window,
        )

    async def _run_until_deadline(self, application: Application[object]) -> object:
        loop = asyncio.get_running_loop()
        timers: list[asyncio.TimerHandle] = []

        def expire() -> None:
            # The question's own deadline may have ended the screen in the same moment (its
            # timer cancels the task): a second exit would be an error printed on the terminal.
            if not application.is_done:
                application.exit(exception=DeadlinePassed())

        def start_deadline() -> None:
            timers.append(loop.call_later(max(self.state.deadline - time.monotonic(), 0), expire))

        try:
            # Ctrl-C arrives as a key in raw mode; SIGINT handling stays with the host process.
            return await application.run_async(pre_run=start_deadline, handle_sigint=False)
        finally:
            for timer in timers:
                timer.cancel()

    def _header(self) -> StyleAndTextTuples:
        header: StyleAndTextTuples = [
            ("class:title", self.state.request.title),
            ("", "\n"),
            *markdown_text(self.state.request.prompt),
            ("", "\n"),
        ]
        if self.state.global_note:
            header += [("class:note", f"✎ Overall note: {self.state.global_note}"), ("", "\n")]
        return header

    def _time_left(self, width: int) -> StyleAndTextTuples:
        seconds = max(int(self.state.deadline - time.monotonic() + 0.999), 0)
        left = f"⏱ {seconds // 60}:{seconds % 60:02d} left"
        return [("class:deadline", wrap_hints([left, "Ctrl-C cancels"], width))]
