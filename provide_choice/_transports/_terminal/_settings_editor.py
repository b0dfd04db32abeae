"""The settings surface shown before the question, and the editor behind "Change settings".

Accepting the saved settings is a single Enter. Each change goes to the question at once
(`LiveQuestion.apply_settings`), which saves it, so cancelling the question afterwards keeps it, and
applies it to the question on screen: a longer timeout moves the deadline. Hidden options leave the
list (they belong to this screen only; a batch shows its settings once, before its first question,
and hides no options).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import cast

import questionary

from provide_choice._contract._batch import Asked
from provide_choice._contract._presentation import hiding_problem
from provide_choice._contract._settings import (
    ALERT_CHANNELS,
    ALERTS_LABEL,
    NUMBER_SETTINGS,
    TIME_SETTINGS,
    TIMEOUT_LABEL,
    InteractionSettings,
    choice_label,
    local_time,
    setting_choices,
)
from provide_choice._contract._transport_table import in_a_sentence
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal._screen import Screen
from provide_choice._transports._terminal._state import QuestionState
from provide_choice._transports._terminal._style import STYLE

ALERT_ITEM = "alerts."
"""The entries of the alert channels, each switched on or off by Enter: `alerts.push`."""


class SettingsEditor:
    """The settings screens of one question, or of a batch; each change goes to the question.

    `single` is the state of a question asked on its own, whose options the person may hide."""

    def __init__(
        self,
        screen: Screen,
        question: LiveQuestion,
        asked: Asked,
        single: QuestionState | None = None,
    ) -> None:
        self.screen = screen
        self.question = question
        self.asked = asked
        self.single = single

    async def accept(self) -> bool:
        """Show the settings until the person continues (True) or cancels the question (False)."""
        while True:
            choice = await self.screen.answer(
                questionary.select(
                    f"Settings: {settings_line(self.question.settings, self.asked)}",
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
                return choice == "continue"
            await self._edit()

    async def _edit(self) -> None:
        item = "done"
        while True:
            item = await self.screen.answer(
                questionary.select(
                    "Change settings (Enter changes the highlighted one)",
                    choices=self._choices(),
                    default=item,
                    style=STYLE,
                )
            )
            if item == "done":
                return
            if item == "hidden" and self.single is not None:
                self.single.hidden_ids = await self._ask_hidden_options(self.single)
                continue
            if item.startswith(ALERT_ITEM):
                channel = item.removeprefix(ALERT_ITEM)
                on = getattr(self.question.settings.alerts, channel)
                await self.question.apply_settings({"alerts": {channel: not on}})
                continue
            value = await self._next_value(item)
            if value != getattr(self.question.settings, item):
                await self.question.apply_settings({item: value})

    def _choices(self) -> list[questionary.Choice]:
        settings, request = self.question.settings, self.asked
        override = settings.timeout_override_seconds
        timeout = (
            f"{override} s" if override else f"as the question asks ({request.timeout_seconds} s)"
        )
        choices = [
            questionary.Choice("Done", "done"),
            questionary.Choice(f"{TIMEOUT_LABEL}: {timeout}", "timeout_override_seconds"),
        ]
        for name, (label, _values) in setting_choices().items():
            shown = choice_label(name, getattr(settings, name))
            if name == "annotations" and not request.allow_annotations:
                shown += " (this question allows none)"
            choices.append(questionary.Choice(f"{label}: {shown}", name))
        for name, setting in NUMBER_SETTINGS.items():
            if name != "timeout_override_seconds":  # shown first, with the question's own
                choices.append(
                    questionary.Choice(f"{setting.label}: {getattr(settings, name)}", name)
                )
        for channel, label in ALERT_CHANNELS.items():
            on = "On" if getattr(settings.alerts, channel) else "Off"
            title = f"{ALERTS_LABEL} {in_a_sentence(label)}: {on}"
            choices.append(questionary.Choice(title, ALERT_ITEM + channel))
        for name, (label, _rule) in TIME_SETTINGS.items():
            shown = getattr(settings, name) or "not set"
            choices.append(questionary.Choice(f"{label}: {shown}", name))
        if self.single is not None and self.single.request.options:
            hidden = len(self.single.hidden_ids)
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
        if name in TIME_SETTINGS:
            return await self._ask_time(name)
        values = [value for value, _label in setting_choices()[name][1]]
        return values[(values.index(getattr(self.question.settings, name)) + 1) % len(values)]

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

        current = getattr(self.question.settings, name)
        empty = " (empty: as the question asks)" if setting.optional else ""
        text = await self.screen.answer(
            questionary.text(
                setting.label + empty,
                default=str(current or ""),
                validate=check,
                style=STYLE,
            )
        )
        return int(text) if text.strip() else None

    async def _ask_time(self, name: str) -> str | None:
        """A local date and time (ISO 8601), offered an hour from now; empty: none."""
        label, rule = TIME_SETTINGS[name]

        def check(text: str) -> bool | str:
            try:
                return not text.strip() or bool(local_time(text.strip()))
            except ValueError:
                return rule

        later = (datetime.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
        text = await self.screen.answer(
            questionary.text(
                f"{label} (local time; empty: not set)",
                default=getattr(self.question.settings, name) or later,
                validate=check,
                style=STYLE,
            )
        )
        return text.strip() or None

    async def _ask_hidden_options(self, single: QuestionState) -> frozenset[str]:
        request, hidden_ids = single.request, single.hidden_ids

        def check(hidden: Sequence[object]) -> bool | str:
            return hiding_problem(request, len(hidden)) or True

        hidden = await self.screen.show(
            questionary.checkbox(
                "Options to hide (space toggles, Enter confirms)",
                choices=[
                    questionary.Choice(option.label, option.id, checked=option.id in hidden_ids)
                    for option in request.options or []
                ],
                style=STYLE,
            ),
            check=check,
        )
        # The entries' values are option ids, so the ticked ones are too.
        return frozenset(cast(list[str], hidden))


def settings_line(settings: InteractionSettings, request: Asked) -> str:
    """The settings in one line, as the first screen shows them."""
    timeout = settings.timeout_override_seconds or request.timeout_seconds
    notes = "notes on" if settings.annotations and request.allow_annotations else "notes off"
    history = "" if settings.keep_history else " · history off"
    return f"transport {settings.transport} · timeout {timeout} s · {notes}{history}"
