"""One question's part of the question view's state, and the settings panel's: what the page and
the app show of them, in the person's language, from the one source of each rule (`_contract`)."""

from __future__ import annotations

from typing import Any

from present_choices import render_markdown
from present_choices._translation import Translation
from provide_choice._contract._meaning import placeholder_rule
from provide_choice._contract._presentation import (
    choose_text,
    count_refusal,
    notes_offered,
    shown_placeholder,
)
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._settings import (
    ALERT_CHANNELS,
    ALERTS_LABEL,
    InteractionSettings,
    number_settings,
    setting_choices,
)


def setting_fields(
    translation: Translation, settings: InteractionSettings
) -> dict[str, dict[str, Any]]:
    """The settings panel's labels, values and rules, from the one source every surface uses (a
    language the settings file names without a catalog is offered as itself, so it shows)."""
    fields: dict[str, dict[str, Any]] = {
        name: {"label": label, "choices": [[value, text] for value, text in choices]}
        for name, (label, choices) in setting_choices(translation).items()
    }
    if all(value != settings.language for value, _text in fields["language"]["choices"]):
        fields["language"]["choices"].append([settings.language, settings.language])
    numbers = {
        name: {"label": label, "range": list(limits), "rule": rule, "optional": optional}
        for name, (label, limits, rule, optional) in number_settings(translation).items()
    }
    channels = [[channel, translation.gettext(label)] for channel, label in ALERT_CHANNELS.items()]
    alerts = {"label": translation.gettext(ALERTS_LABEL), "channels": channels}
    return fields | numbers | {"alerts": alerts}


def question_part(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    hidden_ids: frozenset[str],
    submits: bool,
    translation: Translation,
) -> dict[str, Any]:
    """One question's part of the page's state: its options (previews rendered by the one
    markdown renderer), its rules, and what choosing does (`submits`: sends the answer)."""
    return {
        "mode": request.selection_mode,
        "options": [
            option.model_dump(include={"label", "description", "recommended"})
            | {
                "id": option.id,
                "preview_html": None if option.preview is None else render_markdown(option.preview),
            }
            for option in request.options or ()
        ],
        "hidden_ids": [option_id for option_id in request.option_ids if option_id in hidden_ids],
        "limits": request.limits._asdict(),
        "instruction": _instruction(request, settings, submits, translation),
        "refusals": {
            "options_only": _refusals(request, False, translation),
            "with_own_answer": _refusals(request, True, translation),
        },
        "placeholder": shown_placeholder(request, settings),
        "placeholder_rule": placeholder_rule(request, settings),
        "has_placeholder": request.placeholder is not None,
        "notes": notes_offered(request, settings),
        "submits_on_selection": submits,
    }


def _instruction(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    submits: bool,
    translation: Translation,
) -> str:
    """The line above the options: how many to choose, and what choosing does (choosing sends
    the answer only where choosing one is the whole answer)."""
    if submits:
        return translation.gettext("Choose one: choosing an option sends your answer.")
    return translation.gettext("{rule}.", rule=choose_text(request, settings, translation))


def _refusals(
    request: ProvideChoiceRequest, own_answer: bool, translation: Translation
) -> list[str | None]:
    """Why an answer holding 0, 1, 2... options cannot be sent, with or without an own answer
    (None: it can): the count rule and its words, the server's, for the script to look up."""
    return [
        count_refusal(request, own_answer, count, translation)
        for count in range(len(request.options or ()) + 1)
    ]
