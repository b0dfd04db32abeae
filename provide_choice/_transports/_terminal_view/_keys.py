"""The keys we add to questionary's lists (a guarded Enter, the note keys, radio-style space, the
number keys), and the help that names them.

questionary builds each list around an `InquirerControl` that knows the entries, the pointer and the
ticks; every key here works on that control, which `list_control` finds once per screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout
from prompt_toolkit.utils import get_cwidth
from questionary.prompts.common import InquirerControl

from provide_choice._transports._terminal_view._list_values import (
    OWN_ANSWER,
    ListValue,
    NoteRequest,
)

SubmitCheck = Callable[[list[ListValue]], bool | str]
"""Decides whether Enter may submit the ticked values: True, or the refusal to show."""

ListKeys = Callable[[InquirerControl], KeyBindings]
"""Builds a screen's extra keys for its list, once the list's control is known."""

HINT_SEPARATOR = " · "
NUMBER_KEYS = "123456789"
"""Digit n chooses (or toggles) the option numbered n: the first nine options of the list."""
NOTE_KEYS = ("n", "g")
FILTER_NOTE_KEYS = ("c-n", "c-g")
"""A list that filters as the person types takes every letter for the filter: its note keys are
Ctrl-N and Ctrl-G instead of n and g."""


def wrap_hints(hints: Sequence[str], width: int) -> str:
    """`hints` ("Enter submit", ...) on as few lines of `width` columns as they fit, broken between
    two hints, never inside one: the terminal would break "Ctrl-C" from "cancel". A hint wider
    than the terminal gets a line of its own (and the terminal wraps that one)."""
    lines: list[str] = []
    for hint in hints:
        joined = f"{lines[-1]}{HINT_SEPARATOR}{hint}" if lines else hint
        if lines and get_cwidth(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(hint)
    return "\n".join(lines)


def list_control(layout: Layout) -> InquirerControl | None:
    """The list of a questionary screen (select or checkbox); None on a text screen."""
    return next(
        (found for found in layout.find_all_controls() if isinstance(found, InquirerControl)),
        None,
    )


def ticked(control: InquirerControl) -> list[ListValue]:
    """The ticked values of a checkbox list, in list order."""
    return [cast(ListValue, choice.value) for choice in control.get_selected_values()]


def pointed(control: InquirerControl) -> ListValue:
    """The value of the entry the pointer is on."""
    return cast(ListValue, control.get_pointed_at().value)


class GuardedSubmit:
    """Enter on a list submits the ticked values only when `check` allows them.

    After a refused attempt `refusal` says why, for the screen's footer: questionary's own validation
    toolbar is not used, since prompt_toolkit hides it when the terminal does not report its cursor
    position."""

    def __init__(self, control: InquirerControl, check: SubmitCheck) -> None:
        self.control = control
        self.check = check
        self.attempted = False

    def refusal(self) -> str | None:
        if not self.attempted:
            return None
        verdict = self.check(ticked(self.control))
        return verdict if isinstance(verdict, str) else None

    def key_bindings(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("enter", eager=True)
        def _submit_if_allowed(event: KeyPressEvent) -> None:
            self.attempted = True
            if self.refusal() is None:
                self.control.is_answered = True
                event.app.exit(result=ticked(self.control))

        return keys


def option_list_keys(
    control: InquirerControl,
    *,
    notes: bool,
    overall_note: bool,
    radio: bool,
    numbered: Sequence[str] = (),
    submits: bool = False,
    filtering: bool = False,
) -> KeyBindings:
    """Note keys (`notes` on an option, `overall_note`), space that ticks only the pointed entry
    (`radio`, for lists where at most one option may be chosen), and the digits 1 to 9 for the
    options `numbered` (in a list that `submits` on selection a digit submits, in a list of ticks
    it ticks the way space does). A note key ends the screen with a `NoteRequest`."""
    keys = KeyBindings()
    note_key, overall_key = FILTER_NOTE_KEYS if filtering else NOTE_KEYS

    def ask_note(event: KeyPressEvent, option_id: str | None) -> None:
        checked = tuple(cast(list[ListValue], control.selected_options))
        event.app.exit(result=NoteRequest(option_id, pointed(control), checked))

    if notes:

        @keys.add(note_key, eager=True)
        def _note_on_option(event: KeyPressEvent) -> None:
            value = pointed(control)
            if value is not OWN_ANSWER:
                ask_note(event, value)

    if overall_note:

        @keys.add(overall_key, eager=True)
        def _overall_note(event: KeyPressEvent) -> None:
            ask_note(event, None)

    def tick(value: ListValue) -> None:
        if radio:
            control.selected_options = [] if value in control.selected_options else [value]
        elif value in control.selected_options:
            control.selected_options.remove(value)
        else:
            control.selected_options.append(value)

    if radio:

        @keys.add(" ", eager=True)
        def _select_only_this(event: KeyPressEvent) -> None:
            tick(pointed(control))

    for digit, option_id in zip(NUMBER_KEYS, numbered, strict=False):
        keys.add(digit, eager=True)(_number_key(control, option_id, None if submits else tick))
    return keys


def _number_key(
    control: InquirerControl, option_id: str, tick: Callable[[ListValue], None] | None
) -> Callable[[KeyPressEvent], None]:
    """The handler of one digit: point at its option, then tick it, or submit it in a list that
    submits on selection (`tick` None). In a list that filters, a digit typed after the first
    letters of a filter goes to the filter ("Python 3")."""

    def press(event: KeyPressEvent) -> None:
        if control.search_filter:  # once the person types a filter, digits are part of it
            control.add_search_character(cast(Keys, event.key_sequence[0].key))
            return
        shown = [choice.value for choice in control.filtered_choices]
        if option_id in shown:
            control.pointed_at = shown.index(option_id)
        if tick is None:
            control.is_answered = True
            event.app.exit(result=option_id)
        else:
            tick(option_id)

    return press
