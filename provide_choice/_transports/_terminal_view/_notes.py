"""The note screen: a note on one option, or the overall note, typed from the option list.

The option list ends itself to show this screen (the note keys exit it with a `NoteRequest`) and is
shown again afterwards with the same pointer and ticks, now with the note beside the option.
"""

from __future__ import annotations

import questionary

from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._state import QuestionState
from provide_choice._transports._terminal_view._style import STYLE
from provide_choice._transports._terminal_view._text_answer import typed_text


async def ask_note(screen: Screen, state: QuestionState, option_id: str | None) -> None:
    """Edit the note on `option_id` (the overall note for None); an empty note removes it."""
    _ = state.translation
    label = next((o.label for o in state.visible_options if o.id == option_id), None)
    current = state.notes.get(option_id, "") if option_id else state.global_note
    text = await screen.answer(
        questionary.text(
            _.gettext("Note on {option}", option=label) if label else _.gettext("Overall note"),
            default=current,
            instruction=_.gettext("(Enter saves, empty removes)"),
            style=STYLE,
        )
    )
    note = typed_text(text)
    if option_id is None:
        state.global_note = note
    elif note:
        state.notes[option_id] = note
    else:
        state.notes.pop(option_id, None)
