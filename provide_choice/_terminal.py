"""The terminal flow: one question in a terminal with questionary, from settings to summary line.

`run_terminal_flow` knows nothing about MCP or servers: it takes a validated request, the person's
settings and a deadline, and returns a transport-neutral `Outcome`. The in-process terminal, the
terminal hand-off and `provide-choice ask` all show the question through it, so they look and behave
the same. Every screen runs under the deadline, shows the time left, erases itself when done, and
treats Ctrl-C as "cancel this question" (never as "stop the server").
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, TextIO

import questionary
from prompt_toolkit import print_formatted_text
from prompt_toolkit.application import create_app_session
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
from prompt_toolkit.input import create_input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import create_output
from prompt_toolkit.styles import Style
from questionary.prompts.common import InquirerControl

from provide_choice._presentation import (
    count_text,
    hiding_problem,
    notes_offered,
    shown_placeholder,
    submits_on_selection,
)
from provide_choice._request import LONE_SURROGATE, ProvideChoiceOption, ProvideChoiceRequest
from provide_choice._response import Answered, Cancelled, Ending, TimedOut, summarize
from provide_choice._settings import (
    NUMBER_SETTINGS,
    SETTING_CHOICES,
    TIMEOUT_LABEL,
    InteractionSettings,
    choice_label,
)
from provide_choice._terminal_markdown import markdown_text

OWN_ANSWER: Final = object()
"""The list entry that leads to typing an own answer (hybrid mode); never an option id."""

STYLE = Style(
    [
        ("title", "bold"),
        ("recommended", "fg:ansigreen bold"),
        ("description", "fg:ansibrightblack"),
        ("note", "fg:ansiyellow italic"),
        ("deadline", "fg:ansicyan"),
        ("placeholder", "fg:ansibrightblack italic"),
        ("summary", "bold"),
        ("refusal", "fg:ansired bold"),
        ("markdown.code", "fg:ansicyan"),
        ("markdown.prefix", "fg:ansibrightblack"),
    ]
)

SettingsChanged = Callable[[dict[str, Any]], object]
"""Receives the settings the person changed (name to new value), to save just those."""


class DeadlinePassed(Exception):
    """Raised out of a prompt when the question's deadline passes while it is shown."""


@dataclass(frozen=True)
class _NoteRequest:
    """The person pressed a note key in the option list; `pointed` and `checked` restore the list."""

    option_id: str | None
    pointed: Any
    checked: tuple[Any, ...]


@contextmanager
def terminal_session(output: TextIO) -> Iterator[None]:
    """Prompts inside read the keyboard on stdin and draw on `output` (stdout in the server, the
    terminal itself in `provide-choice ask`, whose stdout carries only the JSON answer)."""
    with create_app_session(input=create_input(sys.stdin), output=create_output(stdout=output)):
        yield


async def run_terminal_flow(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    deadline: float,
    *,
    on_settings_change: SettingsChanged,
) -> Ending:
    """Show the settings surface, then the question; print one summary line; return the outcome.

    `deadline` is a `time.monotonic()` value; a timeout override the person sets meanwhile moves it
    later. `on_settings_change` receives each change the person makes, to save it and to apply it
    to the question. Cancellation of the calling task closes the prompt.
    """
    flow = _TerminalFlow(request, settings, deadline, on_settings_change)
    outcome: Ending
    try:
        outcome = await flow.run()
    except KeyboardInterrupt:
        outcome = Cancelled()
    except DeadlinePassed:
        outcome = TimedOut(action=flow.settings.timeout_action)
    print_summary(summarize(request, outcome))
    return outcome


def print_summary(summary: str) -> None:
    """The one line a question leaves in the terminal once it ends."""
    print_formatted_text(FormattedText([("class:summary", summary)]), style=STYLE)


class _TerminalFlow:
    def __init__(
        self,
        request: ProvideChoiceRequest,
        settings: InteractionSettings,
        deadline: float,
        on_settings_change: SettingsChanged,
    ) -> None:
        self.request = request
        self.settings = settings
        self.deadline = deadline
        self.on_settings_change = on_settings_change
        self.hidden_ids: frozenset[str] = frozenset()
        self.notes: dict[str, str] = {}
        self.global_note = ""

    async def run(self) -> Ending:
        if not await self._accept_settings():
            return Cancelled()
        if self.request.selection_mode == "text_input":
            return await self._answer_in_text()
        return await self._answer_from_options()

    # Effective behaviour: the person's settings override what the agent asked for.

    @property
    def notes_offered(self) -> bool:
        return notes_offered(self.request, self.settings)

    @property
    def submits_on_selection(self) -> bool:
        return submits_on_selection(self.request, self.settings)

    @property
    def visible_options(self) -> list[ProvideChoiceOption]:
        return [option for option in self.request.options or () if option.id not in self.hidden_ids]

    # Settings surface: accepting the saved settings is a single Enter.

    async def _accept_settings(self) -> bool:
        while True:
            choice = await self._prompt(
                questionary.select(
                    f"Settings: {_settings_line(self.settings, self.request)}",
                    choices=[
                        questionary.Choice("Continue with these settings", "continue"),
                        questionary.Choice("Change settings", "change"),
                        questionary.Choice("Cancel this question", "cancel"),
                    ],
                    instruction="(Enter continues)",
                    style=STYLE,
                )
            )
            if choice != "change":
                return bool(choice == "continue")
            await self._edit_settings()

    async def _edit_settings(self) -> None:
        """Each change is saved at once, so cancelling the question afterwards keeps it."""
        item = "done"
        while True:
            item = await self._prompt(
                questionary.select(
                    "Change settings (Enter changes the highlighted one)",
                    choices=self._setting_choices(),
                    default=item,
                    style=STYLE,
                )
            )
            if item == "done":
                return
            if item == "hidden":
                self.hidden_ids = await self._ask_hidden_options()
                continue
            value = await self._next_value(item)
            if value == getattr(self.settings, item):
                continue
            self.settings = self.settings.model_copy(update={item: value})
            if item == "timeout_override_seconds" and isinstance(value, int):
                # The person asked for more time while looking at the question: they get it now.
                self.deadline = max(self.deadline, time.monotonic() + value)
            self.on_settings_change({item: value})

    def _setting_choices(self) -> list[questionary.Choice]:
        settings, request = self.settings, self.request
        override = settings.timeout_override_seconds
        timeout = (
            f"{override} s" if override else f"as the question asks ({request.timeout_seconds} s)"
        )
        choices = [
            questionary.Choice("Done", "done"),
            questionary.Choice(f"{TIMEOUT_LABEL}: {timeout}", "timeout_override_seconds"),
        ]
        for name, (label, _values) in SETTING_CHOICES.items():
            shown = choice_label(name, getattr(settings, name))
            if name == "annotations" and not request.allow_annotations:
                shown += " (this question allows none)"
            choices.append(questionary.Choice(f"{label}: {shown}", name))
        days = NUMBER_SETTINGS["history_days"].label
        choices.append(questionary.Choice(f"{days}: {settings.history_days}", "history_days"))
        if request.options:
            hidden = len(self.hidden_ids)
            choices.append(
                questionary.Choice(
                    f"Hidden options (this question only): {hidden or 'none'}", "hidden"
                )
            )
        return choices

    async def _next_value(self, name: str) -> object:
        """The setting's next value in its list, or the typed number."""
        if name in NUMBER_SETTINGS:
            return await self._ask_number(name)
        values = [value for value, _label in SETTING_CHOICES[name][1]]
        return values[(values.index(getattr(self.settings, name)) + 1) % len(values)]

    async def _ask_number(self, name: str) -> int | None:
        """A setting typed as whole number within its range; empty (None) only when optional."""
        setting = NUMBER_SETTINGS[name]
        minimum, maximum = setting.range

        def check(text: str) -> bool | str:
            text = text.strip()
            return (
                (not text and setting.optional)
                or (text.isdigit() and len(text) < 10 and minimum <= int(text) <= maximum)
                or setting.rule
            )

        current = getattr(self.settings, name)
        empty = " (empty: as the question asks)" if setting.optional else ""
        text = await self._prompt(
            questionary.text(
                setting.label + empty,
                default=str(current or ""),
                validate=check,
                style=STYLE,
            )
        )
        return int(text) if text.strip() else None

    async def _ask_hidden_options(self) -> frozenset[str]:
        options = self.request.options or []

        def check(hidden: list[str]) -> bool | str:
            return hiding_problem(self.request, len(hidden)) or True

        hidden = await self._prompt(
            questionary.checkbox(
                "Options to hide (space toggles, Enter confirms)",
                choices=[
                    questionary.Choice(
                        option.label, option.id, checked=option.id in self.hidden_ids
                    )
                    for option in options
                ],
                style=STYLE,
            ),
            check=check,
        )
        return frozenset(hidden)

    # The question.

    async def _answer_in_text(self) -> Answered:
        text, placeholder_used = await self._type_answer("Your answer")
        return Answered(custom_input=text, placeholder_used=placeholder_used)

    async def _answer_from_options(self) -> Answered:
        visible_ids = {option.id for option in self.visible_options}
        checked: tuple[Any, ...] = tuple(
            option_id
            for option_id in self.request.default_selection_ids
            if option_id in visible_ids
        )
        pointer: Any = checked[0] if checked else None
        while True:
            picked = await self._prompt(
                self._option_list(checked, pointer),
                extra_keys=self._list_keys(),
                check=None if self.submits_on_selection else self._check_count,
            )
            if not isinstance(picked, _NoteRequest):
                break
            checked, pointer = picked.checked, picked.pointed
            await self._ask_note(picked.option_id)
        values: list[Any] = [picked] if self.submits_on_selection else list(picked)
        custom_input, placeholder_used = None, False
        if OWN_ANSWER in values:
            custom_input, placeholder_used = await self._type_answer("Your own answer")
        return Answered(
            selected_ids=[value for value in values if value is not OWN_ANSWER],
            custom_input=custom_input,
            option_annotations=self.notes,
            global_annotation=self.global_note or None,
            placeholder_used=placeholder_used,
        )

    def _option_list(self, checked: Sequence[Any], pointer: Any) -> questionary.Question:
        choices = [
            questionary.Choice(self._option_title(option), option.id, checked=option.id in checked)
            for option in self.visible_options
        ]
        if self.request.selection_mode == "hybrid":
            choices.append(
                questionary.Choice(
                    "✎ Type my own answer…", OWN_ANSWER, checked=OWN_ANSWER in checked
                )
            )
        values = [choice.value for choice in choices]
        pointer = pointer if pointer in values else values[0]
        keys = ["↑↓ move", "Enter submit"]
        if self.notes_offered:
            keys += ["n note on option", "g overall note"]
        keys.append("Ctrl-C cancel")
        if self.submits_on_selection:
            return questionary.select(
                self._list_message(),
                choices,
                default=pointer,
                instruction=f"({', '.join(keys)})",
                style=STYLE,
            )
        keys.insert(1, "space select" if self.request.limits.maximum == 1 else "space toggle")
        return questionary.checkbox(
            self._list_message(),
            choices,
            initial_choice=pointer,
            instruction=f"({', '.join(keys)})",
            style=STYLE,
        )

    def _list_message(self) -> str:
        minimum, maximum = self.request.limits
        if self.submits_on_selection:
            return "Choose one"
        if self.request.selection_mode == "hybrid":
            return f"Choose {count_text(minimum, maximum)}, or type your own answer"
        return f"Choose {count_text(minimum, maximum)}"

    def _check_count(self, values: list[Any]) -> bool | str:
        """Refuse a submission outside the limits; typing an own answer waives the minimum."""
        minimum, maximum = self.request.limits
        count = sum(value is not OWN_ANSWER for value in values)
        if OWN_ANSWER in values:
            minimum = 0
        if minimum <= count <= maximum:
            return True
        return f"Choose {count_text(minimum, maximum)} ({count} chosen)"

    def _list_keys(self) -> KeyBindings:
        """Note keys, and radio behaviour for space when at most one option may be chosen."""
        keys = KeyBindings()

        def control(event: KeyPressEvent) -> InquirerControl:
            return next(
                found
                for found in event.app.layout.find_all_controls()
                if isinstance(found, InquirerControl)
            )

        def note_on(event: KeyPressEvent, option_id: str | None) -> None:
            inquirer = control(event)
            pointed = inquirer.get_pointed_at().value
            event.app.exit(
                result=_NoteRequest(option_id, pointed, tuple(inquirer.selected_options))
            )

        if self.notes_offered:

            @keys.add("n", eager=True)
            def _note_on_option(event: KeyPressEvent) -> None:
                pointed = control(event).get_pointed_at().value
                if pointed is not OWN_ANSWER:
                    note_on(event, pointed)

            @keys.add("g", eager=True)
            def _overall_note(event: KeyPressEvent) -> None:
                note_on(event, None)

        if not self.submits_on_selection and self.request.limits.maximum == 1:

            @keys.add(" ", eager=True)
            def _select_only_this(event: KeyPressEvent) -> None:
                inquirer = control(event)
                pointed = inquirer.get_pointed_at().value
                inquirer.selected_options = (
                    [] if pointed in inquirer.selected_options else [pointed]
                )

        return keys

    def _option_title(self, option: ProvideChoiceOption) -> list[tuple[str, str]]:
        title = [("class:text", option.label)]
        if option.recommended:
            title.append(("class:recommended", "  ★ recommended"))
        if option.description:
            title.append(("class:description", f"  — {option.description}"))
        if note := self.notes.get(option.id):
            title.append(("class:note", f"  ✎ {note}"))
        return title

    async def _ask_note(self, option_id: str | None) -> None:
        label = next((o.label for o in self.visible_options if o.id == option_id), None)
        current = self.notes.get(option_id, "") if option_id else self.global_note
        text = await self._prompt(
            questionary.text(
                f"Note on {label}" if label else "Overall note",
                default=current,
                instruction="(Enter saves, empty removes)",
                style=STYLE,
            )
        )
        note = typed_text(text)
        if option_id is None:
            self.global_note = note
        elif note:
            self.notes[option_id] = note
        else:
            self.notes.pop(option_id, None)

    async def _type_answer(self, message: str) -> tuple[str, bool]:
        """The person's text; an empty field stands for the placeholder only when it is shown."""
        placeholder = shown_placeholder(self.request, self.settings)

        def check(text: str) -> bool | str:
            return bool(text.strip() or placeholder) or "Type an answer (Ctrl-C cancels)"

        text = typed_text(
            await self._prompt(
                questionary.text(
                    message,
                    validate=check,
                    placeholder=FormattedText([("class:placeholder", placeholder)])
                    if placeholder
                    else None,
                    instruction="(Enter submits, empty uses the suggestion)"
                    if placeholder
                    else "(Enter submits)",
                    style=STYLE,
                )
            )
        )
        if text or placeholder is None:
            return text, False
        return placeholder, True

    # Every screen goes through here: header, deadline, erase when done.

    async def _prompt(
        self,
        question: questionary.Question,
        *,
        extra_keys: KeyBindings | None = None,
        check: Callable[[list[Any]], bool | str] | None = None,
    ) -> Any:
        """Run one screen under the deadline. For a list, `check` decides whether Enter may submit
        the ticked values; a refusal shows in the footer (questionary's own validation toolbar is
        not used: prompt_toolkit hides it when the terminal does not report its cursor position)."""
        if time.monotonic() >= self.deadline:
            raise DeadlinePassed
        application = question.application
        inquirer = next(
            (
                found
                for found in application.layout.find_all_controls()
                if isinstance(found, InquirerControl)
            ),
            None,
        )
        submit_attempted = False

        def refusal() -> str | None:
            if not submit_attempted or check is None or inquirer is None:
                return None
            verdict = check(_ticked(inquirer))
            return verdict if isinstance(verdict, str) else None

        bindings = [application.key_bindings or KeyBindings()]
        if extra_keys is not None:
            bindings.append(extra_keys)
        if check is not None and inquirer is not None:
            submit_keys = KeyBindings()

            @submit_keys.add("enter", eager=True)
            def _submit_if_allowed(event: KeyPressEvent) -> None:
                nonlocal submit_attempted
                submit_attempted = True
                if refusal() is None:
                    inquirer.is_answered = True
                    event.app.exit(result=_ticked(inquirer))

            bindings.append(submit_keys)
        application.key_bindings = merge_key_bindings(bindings)

        def footer() -> StyleAndTextTuples:
            problem = refusal()
            refused: StyleAndTextTuples = [("", "\n"), ("class:refusal", f"✗ {problem}")]
            return self._time_left() + (refused if problem else [])

        application.layout = Layout(
            HSplit(
                [
                    Window(
                        FormattedTextControl(self._header), wrap_lines=True, dont_extend_height=True
                    ),
                    application.layout.container,
                    Window(FormattedTextControl(footer), wrap_lines=True, dont_extend_height=True),
                ]
            ),
            focused_element=application.layout.current_window,
        )
        application.erase_when_done = True
        application.refresh_interval = 1.0
        loop = asyncio.get_running_loop()
        timers: list[asyncio.TimerHandle] = []

        def expire() -> None:
            application.exit(exception=DeadlinePassed())

        def start_deadline() -> None:
            timers.append(loop.call_later(max(self.deadline - time.monotonic(), 0), expire))

        try:
            # Ctrl-C arrives as a key in raw mode; SIGINT handling stays with the host process.
            return await application.run_async(pre_run=start_deadline, handle_sigint=False)
        finally:
            for timer in timers:
                timer.cancel()

    def _header(self) -> StyleAndTextTuples:
        header: StyleAndTextTuples = [
            ("class:title", self.request.title),
            ("", "\n"),
            *markdown_text(self.request.prompt),
            ("", "\n"),
        ]
        if self.global_note:
            header += [("class:note", f"✎ Overall note: {self.global_note}"), ("", "\n")]
        return header

    def _time_left(self) -> StyleAndTextTuples:
        seconds = max(int(self.deadline - time.monotonic() + 0.999), 0)
        return [("class:deadline", f"⏱ {seconds // 60}:{seconds % 60:02d} left · Ctrl-C cancels")]


def typed_text(text: str) -> str:
    """What the person typed, trimmed, with every byte that was not UTF-8 replaced by U+FFFD.
    prompt_toolkit keeps such bytes as lone surrogates, which no answer can carry (JSON, HTTP)."""
    return LONE_SURROGATE.sub("\ufffd", text).strip()


def _ticked(inquirer: InquirerControl) -> list[Any]:
    """The ticked values of a checkbox list, in list order."""
    return [choice.value for choice in inquirer.get_selected_values()]


def _settings_line(settings: InteractionSettings, request: ProvideChoiceRequest) -> str:
    timeout = settings.timeout_override_seconds or request.timeout_seconds
    notes = "notes on" if settings.annotations and request.allow_annotations else "notes off"
    history = "" if settings.keep_history else " · history off"
    return f"transport {settings.transport} · timeout {timeout} s · {notes}{history}"
