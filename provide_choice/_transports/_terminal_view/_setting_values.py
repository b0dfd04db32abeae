"""A setting's values to choose from, in a list of their own: changing a setting takes a choice.

Enter on a setting of the terminal's settings screen opens its values here; the list starts on the
current one, which says so ("(now)"), so Enter alone keeps it, and the key help says which key
sets the highlighted value. (It was Enter on the setting itself, cycling through six values in
place: one key too many changed a setting unseen.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import questionary

from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._style import STYLE


async def choose_value(
    screen: Screen, label: str, values: Sequence[tuple[object, str]], current: object
) -> object:
    """One of `values` (value, label), chosen in a list that starts on `current` and says which
    it is: Enter on it keeps it. A value not among them (a language written in the file by hand)
    starts the list on the first."""
    _ = screen.state.translation
    labels = [
        _.gettext("{value} (now)", value=text) if value == current else text
        for value, text in values
    ]
    now = next(
        (str(index) for index, (value, _text) in enumerate(values) if value == current), None
    )
    picked = await screen.show(
        questionary.select(
            label,
            choices=[questionary.Choice(text, str(index)) for index, text in enumerate(labels)],
            default=now,
            instruction=" ",
            style=STYLE,
        ),
        hints=[_.gettext("↑↓ move"), _.gettext("Enter sets the highlighted value")],
    )
    return values[int(cast(str, picked))][0]
