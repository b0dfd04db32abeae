"""The frame every screen of the flow runs in: header, deadline, footer, erased when done.

questionary builds a screen's application; `Screen.show` rebuilds it the flow's way before running
it: the question's title and prompt above, the keys it answers to, the time left (and a refused
submission) below, our keys merged in, a redraw each second for the countdown, and an exit with
`DeadlinePassed` when time runs out. Ctrl-C stays questionary's: it raises `KeyboardInterrupt` out
of the screen. In a batch, Shift-Tab raises `WentBack` out of any screen of a question that has one
before it (and out of the review). The footer is laid out for the terminal's width at every redraw,
so a resized window never breaks a key's hint in two; a list's preview gets the lines left over.
A list's entries wider than the window are cut, ending with `…`. Under the time left, the status
line shows what the server said meanwhile (`provide_choice._notices`: a push not delivered, Redis
away), one line for each of the last few things said, each cut at the window's width: the lines
above it stay as they are, and the whole of each is written on stderr once the screen is gone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Protocol, cast

import questionary
from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.layout import Container, Dimension, HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from questionary.prompts.common import InquirerControl

from present_choices._translation import Translation
from provide_choice._notices import held_lines
from provide_choice._question import LiveQuestion
from provide_choice._test_clock import follow
from provide_choice._transports._terminal_view._cut import cut_at_width, cut_text
from provide_choice._transports._terminal_view._keys import (
    GuardedSubmit,
    ListKeys,
    SubmitCheck,
    list_control,
    pointed,
    wrap_hints,
)
from provide_choice._transports._terminal_view._list_values import ListValue
from provide_choice._transports._terminal_view._preview import (
    MINIMUM_ROOM,
    fitted_preview,
    line_count,
)

BACK_KEY = "s-tab"
STATUS_LINES = 2
"""How many of the things the server said the status line shows at most (the latest)."""
Previews = Callable[[ListValue], StyleAndTextTuples]
"""The preview of a list's entry as the screen shows it under the list (empty: none)."""


class DeadlinePassed(Exception):
    """Raised out of a screen when the question's deadline passes while it is shown."""


class WentBack(Exception):
    """Raised out of a screen when the person asks for the batch's previous question."""


class Frame(Protocol):
    """What a screen is framed by: a question's state (or a batch's), read at every redraw."""

    @property
    def question(self) -> LiveQuestion:
        """The open question the screen belongs to: the person's first key touches it."""
        ...

    @property
    def deadline(self) -> float: ...

    @property
    def can_go_back(self) -> bool: ...

    @property
    def translation(self) -> Translation:
        """The language the screens speak, read at every redraw."""
        ...

    def header(self) -> StyleAndTextTuples: ...


class Screen:
    """Runs questionary questions under one question's deadline, framed by its header and footer."""

    def __init__(self, state: Frame) -> None:
        self.state = state

    async def show(
        self,
        question: questionary.Question,
        *,
        list_keys: ListKeys | None = None,
        check: SubmitCheck | None = None,
        hints: Sequence[str] = (),
        previews: Previews | None = None,
    ) -> object:
        """Run one screen; its answer is a value the question was built with (or a list of them, or
        what one of `list_keys` exits with). For a list, `check` decides whether Enter may submit
        the ticked values. `hints` name the keys the screen answers to ("Enter submit"), in the
        footer, above the time left (which names Ctrl-C). `previews` draws the pointed entry's
        preview under a list, in the lines the rest of the screen leaves."""
        if time.monotonic() >= self.state.deadline:
            raise DeadlinePassed
        application = question.application
        control = list_control(application.layout)
        guard = None if check is None or control is None else GuardedSubmit(control, check)
        bindings = [application.key_bindings or KeyBindings(), self._back_key()]
        if list_keys is not None and control is not None:
            bindings.append(list_keys(control))
        if guard is not None:
            bindings.append(guard.key_bindings())
        application.key_bindings = merge_key_bindings(bindings)
        if self.state.can_go_back:
            hints = [*hints, self.state.translation.gettext("Shift-Tab previous question")]
        application.layout = self._framed(application.layout, guard, hints, control, previews)
        application.erase_when_done = True
        application.refresh_interval = 1.0
        application.key_processor.before_key_press += self._touched
        return await self._run_until_deadline(application)

    def _touched(self, _keys: object) -> None:
        self.state.question.touch()

    async def answer(self, question: questionary.Question) -> str:
        """Run a text screen, or a list whose values are all strings (the flow's own menus)."""
        return cast(str, await self.show(question))

    def _back_key(self) -> KeyBindings:
        keys = KeyBindings()
        if self.state.can_go_back:

            @keys.add(BACK_KEY, eager=True)
            def _previous_question(event: KeyPressEvent) -> None:
                event.app.exit(exception=WentBack())

        return keys

    def _framed(
        self,
        layout: Layout,
        guard: GuardedSubmit | None,
        hints: Sequence[str],
        control: InquirerControl | None,
        previews: Previews | None,
    ) -> Layout:
        def footer() -> StyleAndTextTuples:
            width = get_app().output.get_size().columns
            keys: StyleAndTextTuples = [("class:instruction", wrap_hints(hints, width)), ("", "\n")]
            problem = guard.refusal() if guard is not None else None
            refused: StyleAndTextTuples = [("", "\n"), ("class:refusal", f"✗ {problem}")]
            shown = (keys if hints else []) + self._time_left(width)
            return shown + (refused if problem else []) + _status(width)

        parts: list[Container] = [_window(self.state.header), layout.container]
        if control is not None:
            control.text = cut_at_width(control.text, _columns)
            self._fit_list(layout, control, previews, footer)
            if previews is not None:
                parts.append(_window(self._preview(control, previews, footer)))
        parts.append(_window(footer))
        return Layout(HSplit(parts), focused_element=layout.current_window)

    def _preview(
        self,
        control: InquirerControl,
        previews: Previews,
        footer: Callable[[], StyleAndTextTuples],
    ) -> Callable[[], StyleAndTextTuples]:
        """The pointed entry's preview, in the rows `_rows` leaves it."""

        def text() -> StyleAndTextTuples:
            columns = get_app().output.get_size().columns
            _list_rows, preview_rows = self._rows(control, previews, footer)
            return fitted_preview(
                previews(pointed(control)), columns, preview_rows, self.state.translation
            )

        return text

    def _fit_list(
        self,
        layout: Layout,
        control: InquirerControl,
        previews: Previews | None,
        footer: Callable[[], StyleAndTextTuples],
    ) -> None:
        """A list taller than the window scrolls (its pointer stays in view) instead of pushing the
        header and the time left off the screen."""

        def height() -> Dimension:
            return Dimension(max=self._rows(control, previews, footer)[0])

        for found in layout.find_all_windows():
            if found.content is control:
                found.height = height

    def _rows(
        self,
        control: InquirerControl,
        previews: Previews | None,
        footer: Callable[[], StyleAndTextTuples],
    ) -> tuple[int, int]:
        """The terminal rows the list's entries and the pointed entry's preview get: what the
        header, the list's question line (and filter line) and the footer leave. When both do not
        fit, the preview gets at most a third of it (but always its first lines)."""
        size = get_app().output.get_size()
        framing = line_count(self.state.header(), size.columns) + line_count(footer(), size.columns)
        free = size.rows - framing - 1 - (2 if control.search_filter else 0) - 1
        wanted = line_count(previews(pointed(control)), size.columns) if previews else 0
        entries = control.choice_count
        if entries + wanted <= free:
            return entries, wanted
        preview_rows = min(wanted, max(free // 3, MINIMUM_ROOM)) if wanted else 0
        return max(free - preview_rows, 1), preview_rows

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

        def skipped(_seconds: float) -> None:
            """A test moved the clock (`_test_clock`): the deadline came nearer."""
            if timers:
                timers.pop().cancel()
                start_deadline()

        stop_following = follow(skipped)
        try:
            # Ctrl-C arrives as a key in raw mode; SIGINT handling stays with the host process.
            return await application.run_async(pre_run=start_deadline, handle_sigint=False)
        finally:
            stop_following()
            for timer in timers:
                timer.cancel()

    def _time_left(self, width: int) -> StyleAndTextTuples:
        _ = self.state.translation
        seconds = max(int(self.state.deadline - time.monotonic() + 0.999), 0)
        left = _.gettext("⏱ {time} left", time=f"{seconds // 60}:{seconds % 60:02d}")
        return [("class:deadline", wrap_hints([left, _.gettext("Ctrl-C cancels")], width))]


def _status(width: int) -> StyleAndTextTuples:
    """The status line: the last things the server said while the screen is up, one line each."""
    status: StyleAndTextTuples = []
    for line in held_lines()[-STATUS_LINES:]:
        status += [("", "\n"), ("class:status", cut_text(line, width))]
    return status


def _columns() -> int:
    return get_app().output.get_size().columns


def _window(text: Callable[[], StyleAndTextTuples]) -> Window:
    """A window of text drawn anew at each redraw, as tall as its lines."""
    return Window(FormattedTextControl(text), wrap_lines=True, dont_extend_height=True)
