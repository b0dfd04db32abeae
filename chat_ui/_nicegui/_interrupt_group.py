"""An interrupt as a group the person answers: `role="group"` named by the interrupt's message, the
tool call it concerns as a code block, a countdown when it expires, and the answer drawn from its
schema (`_ANSWER_VIEWS`: one element per kind of answer, so a new kind is one entry).

Like a choices block, a group shows the state it is given and reports the person's answer; the
owner of the conversation keeps the answer and decides the state (see `interrupt_states`). Only
expiry is the group's own: it is a matter of the clock, not of the conversation, so the group counts
down and, once the time has passed, says "Expired" and takes no answer (the view makes the same
check before it goes on). Everything the agent wrote is shown as text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from nicegui import ui
from nicegui.elements.mixins.text_element import TextElement

from chat_ui._model._answer_schema import (
    AnswerSchema,
    Approval,
    Form,
    OneValue,
    Undrawable,
    read_schema,
)
from chat_ui._model._conversation import Interrupt, Resume
from chat_ui._model._interrupts import PENDING, InterruptState, expiry
from chat_ui._nicegui._interrupt_answers import (
    AnswerView,
    ApprovalAnswer,
    CancelOnly,
    FormAnswer,
    Send,
    ValueAnswer,
)
from chat_ui._nicegui._language import chat_words
from chat_ui._nicegui._styles import ensure_styles
from present_choices._translation import N_

AnswerHandler = Callable[[Resume, str], None]
"""Called with the answer to an interrupt, and the answer in words."""
EXPIRED = N_("Expired")
_STATE_CLASSES = "choice-group--pending choice-group--answered choice-group--outdated"

_ANSWER_VIEWS: Mapping[type, Callable[[Any, Send], AnswerView]] = {
    Approval: ApprovalAnswer,
    OneValue: ValueAnswer,
    Form: FormAnswer,
    Undrawable: CancelOnly,
}


class InterruptGroup(ui.element):
    """One interrupt of a reply; `on_answer` receives the person's answer while it is pending."""

    def __init__(
        self, interrupt: Interrupt, *, on_answer: AnswerHandler, state: InterruptState = PENDING
    ) -> None:
        super().__init__("div")
        ensure_styles()
        self.interrupt = interrupt
        self.schema: AnswerSchema = read_schema(interrupt.get("response_schema"))
        self.state = state
        self._on_answer = on_answer
        self._deadline = expiry(interrupt)
        self.classes("choice-group interrupt-group")
        with self:
            question = ui.label(interrupt["message"]).classes("choice-question")
            self.props.update({"role": "group", "aria-labelledby": question.html_id})
            call = interrupt.get("tool_call")
            if call is not None:
                arguments = json.dumps(call["arguments"], indent=2, ensure_ascii=False)
                code = TextElement(tag="pre", text=arguments).classes("interrupt-arguments")
                code.props["tabindex"] = "0"  # a long call scrolls: the keyboard can scroll it
            self.countdown = ui.label().classes("interrupt-expiry")
            self.answer_view = _ANSWER_VIEWS[type(self.schema)](self.schema, self._send)
            self._timer = ui.timer(1.0, self._tick) if self._deadline is not None else None
        self._shown_expired = False
        self._show()

    @property
    def expired(self) -> bool:
        return self._deadline is not None and self._deadline <= datetime.now(UTC)

    @property
    def accepts_answer(self) -> bool:
        return self.state.status == "pending" and not self.expired

    def set_state(self, state: InterruptState) -> None:
        """Show `state`; a group whose state did not change sends nothing to the browser."""
        if state != self.state:
            self.state = state
            self._show()

    def _send(self, payload: Any, words: str) -> None:
        if not self.accepts_answer:
            return
        interrupt_id = self.interrupt["id"]
        answer: Resume = (
            {"interrupt_id": interrupt_id, "status": "cancelled"}
            if payload is None
            else {"interrupt_id": interrupt_id, "status": "resolved", "payload": payload}
        )
        self._on_answer(answer, words)

    def _show(self) -> None:
        expired = self.state.status == "pending" and self.expired
        self._shown_expired = expired
        status = "outdated" if expired or self.state.status == "cancelled" else self.state.status
        self.answer_view.show(self.state.answer, disabled=not self.accepts_answer)
        self.classes(add=f"choice-group--{status}", remove=_STATE_CLASSES)
        self._show_countdown()
        if self._timer is not None:
            self._timer.active = self.state.status == "pending" and not expired

    def _tick(self) -> None:
        """Once a second while it may be answered: the time left, until there is none."""
        if self.expired and not self._shown_expired:
            self._show()
        else:
            self._show_countdown()

    def _show_countdown(self) -> None:
        text = ""
        if self._shown_expired:
            text = chat_words().gettext(EXPIRED)
        elif self._deadline is not None and self.state.status == "pending":
            seconds = max(int((self._deadline - datetime.now(UTC)).total_seconds()), 0)
            hours, rest = divmod(seconds, 3600)
            minutes = f"{hours}:{rest // 60:02d}" if hours else f"{rest // 60}"
            text = chat_words().gettext("Answer within {time}", time=f"{minutes}:{rest % 60:02d}")
        self.countdown.set_text(text)
        self.countdown.set_visibility(bool(text))
