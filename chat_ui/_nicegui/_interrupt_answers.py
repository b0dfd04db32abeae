"""The ways an interrupt's answer is drawn, one element per kind of `responseSchema` (as
`chat_ui._model._answer_schema` reads it): Approve/Deny with a Reason, one button per value, a small
form, or Cancel alone.

Each is given the schema as read and `send(payload, words)`, which the group turns into the resume
entry (`words` says the answer in a few words, for the message that keeps it). Each shows an answer
it is given (`show`): the chosen button pressed, the fields as they were sent, everything disabled;
it never decides that it was answered itself. Labels, titles and values are text, never HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Protocol

from nicegui import ui

from chat_ui._model._answer_schema import Approval, Field, Form, OneValue, Undrawable
from chat_ui._model._conversation import Resume
from chat_ui._nicegui._choice_group import ChoiceButton
from chat_ui._nicegui._language import chat_words
from present_choices._translation import N_

Send = Callable[[Any, str], None]
"""Send `payload` as the answer, said in `words`; a payload of None cancels the interrupt."""

CANNOT_DRAW = N_("This agent needs an answer the chat cannot draw.")


class AnswerView(Protocol):
    def show(self, answer: Resume | None, *, disabled: bool) -> None:
        """Show `answer` (None: none given), and whether the person can still answer."""


class ApprovalAnswer(ui.element):
    """Approve and Deny, and a Reason the person may give (sent as `reason` with either)."""

    def __init__(self, schema: Approval, send: Send) -> None:
        super().__init__("div")
        self._send = send
        with self:
            self.reason: ui.input | None = None
            if schema.reason:
                reason = chat_words().gettext("Reason")
                self.reason = ui.input(label=reason).props("dense outlined")
                self.reason.props["aria-label"] = reason
                self.reason.classes("interrupt-reason")
            with ui.element("div").classes("choice-options"):
                words = chat_words()
                self.approve = ChoiceButton(words.gettext("Approve"), partial(self._decide, True))
                self.deny = ChoiceButton(words.gettext("Deny"), partial(self._decide, False))

    def _decide(self, approved: bool) -> None:
        payload: dict[str, Any] = {"approved": approved}
        reason = (self.reason.value or "").strip() if self.reason is not None else ""
        if reason:
            payload["reason"] = reason
        _ = chat_words()
        words = _.gettext("Approve") if approved else _.gettext("Deny")
        said = _.gettext("{answer}: {reason}", answer=words, reason=reason) if reason else words
        self._send(payload, said)

    def show(self, answer: Resume | None, *, disabled: bool) -> None:
        payload = answer.get("payload") if answer else None
        approved = payload.get("approved") if isinstance(payload, Mapping) else None
        self.approve.show(pressed=approved is True, disabled=disabled)
        self.deny.show(pressed=approved is False, disabled=disabled)
        if self.reason is not None:
            if isinstance(payload, Mapping):
                self.reason.value = payload.get("reason") or ""
            self.reason.set_enabled(not disabled)


class ValueAnswer(ui.element):
    """One button per value the answer may be."""

    def __init__(self, schema: OneValue, send: Send) -> None:
        super().__init__("div")
        self.classes("choice-options")
        self._schema = schema
        with self:
            self.buttons = [
                ChoiceButton(
                    option.label, partial(send, schema.payload(option.value), option.label)
                )
                for option in schema.options
            ]

    def show(self, answer: Resume | None, *, disabled: bool) -> None:
        payload = answer.get("payload") if answer else None
        for button, option in zip(self.buttons, self._schema.options, strict=True):
            pressed = answer is not None and payload == self._schema.payload(option.value)
            button.show(pressed=pressed, disabled=disabled)


class FormAnswer(ui.element):
    """A field per property, the required ones marked, and Submit, which sends the answer once
    every required field is filled (saying which are not, otherwise)."""

    def __init__(self, schema: Form, send: Send) -> None:
        super().__init__("div")
        self.classes("interrupt-form")
        self._schema = schema
        self._send = send
        with self:
            self.inputs = {field.name: _input(field) for field in schema.fields}
            self.problems = ui.label().classes("interrupt-problems")
            self.problems.props["role"] = "alert"
            self.problems.set_visibility(False)
            with ui.element("div").classes("choice-options"):
                self.submit = ChoiceButton(chat_words().gettext("Submit"), self._submit)

    def _submit(self) -> None:
        values = {name: element.value for name, element in self.inputs.items()}
        payload, problems = self._schema.payload(values)
        said = chat_words().gettext("Not sent: {problems}.", problems="; ".join(problems))
        self.problems.set_text(said if problems else "")
        self.problems.set_visibility(bool(problems))
        if not problems:
            titles = {field.name: field.title for field in self._schema.fields}
            words = ", ".join(f"{titles[name]}: {value}" for name, value in payload.items())
            self._send(payload, words or chat_words().gettext("Submit"))

    def show(self, answer: Resume | None, *, disabled: bool) -> None:
        payload = answer.get("payload") if answer else None
        if isinstance(payload, Mapping):
            for name, element in self.inputs.items():
                element.value = payload.get(name, element.value)
            self.problems.set_visibility(False)
        for element in self.inputs.values():
            element.set_enabled(not disabled)
        self.submit.show(pressed=False, disabled=disabled)


def _input(field: Field) -> ui.input | ui.number | ui.checkbox | ui.select:
    """The input of one field, its accessible name its label; a required one says so."""
    required = chat_words().gettext("{field} (required)", field=field.title)
    label = required if field.required else field.title
    element: ui.input | ui.number | ui.checkbox | ui.select
    if field.kind == "boolean":
        element = ui.checkbox(label, value=bool(field.default))
    elif field.kind == "enum":
        options = {option.value: option.label for option in field.options}
        element = ui.select(options, label=label, value=field.default)
    elif field.kind in ("number", "integer"):
        default = field.default if isinstance(field.default, int | float) else None
        element = ui.number(label=label, value=default)
    else:
        element = ui.input(label=label, value="" if field.default is None else str(field.default))
    if not isinstance(element, ui.checkbox):
        element.props("dense outlined")
    element.props["aria-label"] = label
    if field.required:
        element.props["aria-required"] = "true"
    return element


class CancelOnly(ui.element):
    """An answer the chat cannot draw: it says so, and offers to cancel the interrupt."""

    def __init__(self, schema: Undrawable, send: Send) -> None:
        super().__init__("div")
        with self:
            ui.label(chat_words().gettext(CANNOT_DRAW)).classes("choice-context")
            with ui.element("div").classes("choice-options"):
                cancel = chat_words().gettext("Cancel")
                self.cancel = ChoiceButton(cancel, partial(send, None, cancel))

    def show(self, answer: Resume | None, *, disabled: bool) -> None:
        self.cancel.show(pressed=answer is not None, disabled=disabled)
