"""The settings surface shown before the question, and the editor behind "Change settings".

Accepting the saved settings is a single Enter. Changing one is deliberate: Enter on a setting opens
its values (the list starts on the current one, which says so), and Enter on another one sets it;
a number or a time is typed in its field. Each change goes to the question at once
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

from present_choices._translation import AUTO, Translation, terminal_translation
from provide_choice._contract._batch import Asked
from provide_choice._contract._presentation import hiding_problem
from provide_choice._contract._setting_labels import (
    ALERTS_LABEL,
    alert_channels,
    choice_label,
    number_settings,
    setting_choices,
    time_settings,
)
from provide_choice._contract._settings import InteractionSettings, local_time
from provide_choice._contract._transport_table import in_a_sentence
from provide_choice._question import LiveQuestion
from provide_choice._transports._terminal_view._screen import Screen
from provide_choice._transports._terminal_view._setting_values import choose_value
from provide_choice._transports._terminal_view._state import QuestionState
from provide_choice._transports._terminal_view._style import STYLE

ALERT_ITEM = "alerts."
"""The entries of the alert channels, each switched on or off: `alerts.push`."""


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

    @property
    def translation(self) -> Translation:
        """The person's language, read at each screen: changing it shows at once."""
        return terminal_translation(self.question.settings.language)

    async def accept(self) -> bool:
        """Show the settings until the person continues (True) or cancels the question (False)."""
        while True:
            _ = self.translation
            line = settings_line(self.question.settings, self.asked, _)
            choice = await self.screen.answer(
                questionary.select(
                    _.gettext("Settings: {settings}", settings=line),
                    choices=[
                        questionary.Choice(_.gettext("Continue with these settings"), "continue"),
                        questionary.Choice(_.gettext("Change settings"), "change"),
                        questionary.Choice(_.gettext("Cancel this question"), "cancel"),
                    ],
                    instruction=_.gettext("(Enter continues)"),
                    style=STYLE,
                )
            )
            if choice != "change":
                return choice == "continue"
            await self._edit()

    async def _edit(self) -> None:
        """The settings, one entry each: Enter opens the highlighted one (its values to choose
        from, or its field), so a stray Enter changes nothing by itself."""
        item = "done"
        while True:
            _ = self.translation
            item = cast(
                str,
                await self.screen.show(
                    questionary.select(
                        _.gettext("Change settings"),
                        choices=self._choices(),
                        default=item,
                        instruction=" ",
                        style=STYLE,
                    ),
                    hints=[_.gettext("↑↓ move"), _.gettext("Enter opens the highlighted setting")],
                ),
            )
            if item == "done":
                return
            if item == "hidden" and self.single is not None:
                self.single.hidden_ids = await self._ask_hidden_options(self.single)
                continue
            if item.startswith(ALERT_ITEM):
                channel = item.removeprefix(ALERT_ITEM)
                on = self.question.settings.alerts.on(channel)
                values = ((True, _.gettext("On")), (False, _.gettext("Off")))
                chosen = await choose_value(self.screen, self._entry_label(item), values, on)
                if chosen != on:
                    await self.question.apply_settings({"alerts": {channel: chosen}})
                continue
            value = await self._new_value(item)
            if value != getattr(self.question.settings, item):
                await self.question.apply_settings({item: value})

    def _choices(self) -> list[questionary.Choice]:
        settings, request, _ = self.question.settings, self.asked, self.translation
        numbers = number_settings(_)
        override = settings.timeout_override_seconds
        timeout = (
            _.gettext("{seconds} s", seconds=override)
            if override
            else _.gettext("as the question asks ({seconds} s)", seconds=request.timeout_seconds)
        )

        def entry(label: str, value: object, name: str) -> questionary.Choice:
            return questionary.Choice(_.gettext("{label}: {value}", label=label, value=value), name)

        choices = [
            questionary.Choice(_.gettext("Done"), "done"),
            entry(numbers["timeout_override_seconds"].label, timeout, "timeout_override_seconds"),
        ]
        labels = {name: label for name, (label, _values) in setting_choices(_).items()}
        for name, label in labels.items():
            shown = choice_label(name, getattr(settings, name), _)
            if name == "annotations" and not request.allow_annotations:
                shown = _.gettext("{value} (this question allows none)", value=shown)
            if name != "language":  # after the history's, beside the question's own below
                choices.append(entry(label, shown, name))
        for name, setting in numbers.items():
            if name != "timeout_override_seconds":  # shown first, with the question's own
                choices.append(entry(setting.label, getattr(settings, name), name))
        for channel in alert_channels():
            on = _.gettext("On") if settings.alerts.on(channel) else _.gettext("Off")
            name = ALERT_ITEM + channel
            choices.append(entry(self._entry_label(name), on, name))
        language = choice_label("language", settings.language, _)
        choices.append(entry(labels["language"], language, "language"))
        for name, (label, _rule) in time_settings(_).items():
            choices.append(entry(label, getattr(settings, name) or _.gettext("not set"), name))
        if self.single is not None and self.single.request.options:
            hidden = len(self.single.hidden_ids) or _.gettext("none")
            choices.append(
                entry(_.gettext("Hidden options (this question only)"), hidden, "hidden")
            )
        return choices

    async def _new_value(self, name: str) -> object:
        """The value the person chooses for the setting `name` (its current one when they keep
        it), or the number or time they type."""
        if name in number_settings():
            return await self._ask_number(name)
        if name in time_settings():
            return await self._ask_time(name)
        label, values = setting_choices(self.translation)[name]
        return await choose_value(self.screen, label, values, getattr(self.question.settings, name))

    def _entry_label(self, item: str) -> str:
        """How the settings list names the entry `item`, without its value."""
        channel = item.removeprefix(ALERT_ITEM)
        _ = self.translation
        return _.gettext(
            "{label} {channel}",
            label=_.gettext(ALERTS_LABEL),
            channel=in_a_sentence(_.gettext(alert_channels()[channel])),
        )

    async def _ask_number(self, name: str) -> int | None:
        """A setting typed as whole number within its range; empty (None) only when optional."""
        setting = number_settings(self.translation)[name]
        minimum, maximum = setting.range

        def check(text: str) -> bool | str:
            text = text.strip()
            return (
                (not text and setting.optional)
                or (text.isdigit() and len(text) < 10 and minimum <= int(text) <= maximum)
                or setting.rule
            )

        current = getattr(self.question.settings, name)
        label = setting.label
        if setting.optional:
            label = self.translation.gettext("{label} (empty: as the question asks)", label=label)
        text = await self.screen.answer(
            questionary.text(
                label,
                default=str(current or ""),
                validate=check,
                style=STYLE,
            )
        )
        return int(text) if text.strip() else None

    async def _ask_time(self, name: str) -> str | None:
        """A local date and time (ISO 8601), offered an hour from now; empty: none."""
        label, rule = time_settings(self.translation)[name]

        def check(text: str) -> bool | str:
            try:
                return not text.strip() or bool(local_time(text.strip()))
            except ValueError:
                return rule

        later = (datetime.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
        text = await self.screen.answer(
            questionary.text(
                self.translation.gettext("{label} (local time; empty: not set)", label=label),
                default=getattr(self.question.settings, name) or later,
                validate=check,
                style=STYLE,
            )
        )
        return text.strip() or None

    async def _ask_hidden_options(self, single: QuestionState) -> frozenset[str]:
        request, hidden_ids = single.request, single.hidden_ids

        def check(hidden: Sequence[object]) -> bool | str:
            return hiding_problem(request, len(hidden), self.translation) or True

        hidden = await self.screen.show(
            questionary.checkbox(
                self.translation.gettext("Options to hide (space toggles, Enter confirms)"),
                choices=[
                    questionary.Choice(option.label, option.id, checked=option.id in hidden_ids)
                    for option in request.options or []
                ],
                instruction=" ",
                style=STYLE,
            ),
            check=check,
        )
        # The entries' values are option ids, so the ticked ones are too.
        return frozenset(cast(list[str], hidden))


def settings_line(settings: InteractionSettings, request: Asked, translation: Translation) -> str:
    """The settings in one line, as the first screen shows them (a list of settings, each one
    message; where questions appear is named by its value, as the settings file holds it)."""
    _ = translation
    timeout = settings.timeout_override_seconds or request.timeout_seconds
    notes_on = settings.annotations and request.allow_annotations
    parts = [
        _.gettext("transport {transport}", transport=settings.transport),
        _.gettext("timeout {seconds} s", seconds=timeout),
        _.gettext("notes on") if notes_on else _.gettext("notes off"),
    ]
    if not settings.keep_history:
        parts.append(_.gettext("history off"))
    if settings.language != AUTO:
        parts.append(_.gettext("language {language}", language=settings.language))
    return " · ".join(parts)
