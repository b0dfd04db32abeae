"""How every surface names the person's settings, in their language: each setting's label and its
values' (the terminal's settings screen and the page's panel draw from here alone)."""

from __future__ import annotations

from typing import NamedTuple

from present_choices._locale_format import language_names
from present_choices._translation import AUTO, ENGLISH, N_, Translation
from provide_choice._contract._mirror_channels import mirror_channels
from provide_choice._contract._settings import (
    ALERT_AFTER_RANGE,
    HISTORY_DAYS_RANGE,
    TIME_RULE,
    TIMEOUT_OVERRIDE_RANGE,
)
from provide_choice._contract._transport_table import preference_labels

ALERTS_LABEL = N_("Tell me a question waits")
ALERT_CHANNELS: dict[str, str] = {
    "terminal": N_("In the terminal (its notification, else a bell)"),
    "desktop": N_("On the desktop (a system notification)"),
    "browser": N_("In the browser (the tab's count and badge, the inbox's notifications)"),
    "push": N_("By push, to the addresses in notify_urls"),
}
"""How every surface names the built-in alert channels, in the order they are offered (`alerts`)."""


def alert_channels() -> dict[str, str]:
    """Every alert channel, by name, with how surfaces word it: the built-in ones, then those of
    the registered transports that follow every question (`_mirror_channels`)."""
    return ALERT_CHANNELS | mirror_channels()


FIXED_CHOICES: dict[str, tuple[str, tuple[tuple[object, str], ...]]] = {
    "single_submit": (
        N_("A single choice is sent"),
        (
            (None, N_("As the question asks")),
            (True, N_("As soon as an option is chosen")),
            (False, N_("When submitted")),
        ),
    ),
    "annotations": (
        N_("Offer notes on options and on the whole question"),
        ((True, N_("Offered")), (False, N_("Not offered"))),
    ),
    "placeholder_visible": (
        N_("Suggested answer in the text field"),
        ((None, N_("As the question asks")), (True, N_("Shown")), (False, N_("Hidden"))),
    ),
    "timeout_action": (
        N_("When time runs out"),
        (
            ("return_defaults", N_("Return the question's defaults")),
            ("return_nothing", N_("Return nothing")),
        ),
    ),
    "keep_history": (
        N_("History of questions and answers"),
        ((True, N_("Kept")), (False, N_("Not kept: nothing stays once a question ends"))),
    ),
    "unattended_action": (
        N_("When nobody can be asked (unattended, or away)"),
        (
            ("return_defaults", N_("Return the question's defaults")),
            ("return_nothing", N_("Return nothing")),
        ),
    ),
    "notify_detail": (
        N_("Push alerts say"),
        (
            ("full", N_("The question, its options and where to answer")),
            ("title_only", N_("The title only")),
        ),
    ),
}


Choices = dict[str, tuple[str, tuple[tuple[object, str], ...]]]


def setting_choices(translation: Translation = ENGLISH) -> Choices:
    """Each setting with a fixed set of values: its label and its values with theirs, in
    `translation`, the one source for every surface (the terminal's settings screen and the
    page's panel). The transports are read from the transport table now, so one registered later
    is offered too; the languages are those with a catalog, each named in its own language."""
    _ = translation
    transport = (
        _.gettext("Where questions appear when the agent does not say"),
        preference_labels(translation),
    )
    languages = (
        (AUTO, _.gettext("Automatic: the browser's or the terminal's language")),
        *((tag, name) for tag, name in language_names()),
    )
    fixed = {
        name: (_.gettext(label), tuple((value, _.gettext(text)) for value, text in values))
        for name, (label, values) in FIXED_CHOICES.items()
    }
    return {"transport": transport, **fixed, "language": (_.gettext("Language"), languages)}


class NumberSetting(NamedTuple):
    """A setting typed as a whole number: how surfaces name it and what they accept."""

    label: str
    range: tuple[int, int]
    rule: str
    """What to type, shown when the typed text is refused."""
    optional: bool
    """Whether it may be left empty (None: as the question asks)."""


def number_settings(translation: Translation = ENGLISH) -> dict[str, NumberSetting]:
    """Each setting typed as a number, in `translation`: the one source for every surface, as
    `setting_choices` is for the others. The bounds are written as typed (`86400`, not
    `86,400`): they say what to type."""
    _ = translation
    low, high = TIMEOUT_OVERRIDE_RANGE
    first_day, last_day = HISTORY_DAYS_RANGE
    soonest, latest = ALERT_AFTER_RANGE
    return {
        "timeout_override_seconds": NumberSetting(
            _.gettext("Timeout in seconds"),
            TIMEOUT_OVERRIDE_RANGE,
            _.gettext(
                "Type whole seconds from {minimum} to {maximum}, or nothing for the question's "
                "own timeout.",
                minimum=str(low),
                maximum=str(high),
            ),
            optional=True,
        ),
        "history_days": NumberSetting(
            _.gettext("Days of history kept"),
            HISTORY_DAYS_RANGE,
            _.gettext(
                "Type whole days from {minimum} to {maximum}.",
                minimum=str(first_day),
                maximum=str(last_day),
            ),
            optional=False,
        ),
        "alert_after_seconds": NumberSetting(
            _.gettext("Alert once a question waited untouched (seconds)"),
            ALERT_AFTER_RANGE,
            _.gettext(
                "Type whole seconds from {minimum} (at once) to {maximum}.",
                minimum=str(soonest),
                maximum=str(latest),
            ),
            optional=False,
        ),
    }


def time_settings(translation: Translation = ENGLISH) -> dict[str, tuple[str, str]]:
    """Each setting typed as a local date and time (None: not set): its label and what to type,
    in `translation`."""
    _ = translation
    return {"away_until": (_.gettext("Away until"), _.gettext(TIME_RULE))}


def choice_label(name: str, value: object, translation: Translation = ENGLISH) -> str:
    """How a surface names this value of the setting `name` (a language tag without a catalog,
    written in the settings file by hand, is named by itself)."""
    labels = setting_choices(translation)[name][1]
    return next((label for choice, label in labels if choice == value), str(value))
