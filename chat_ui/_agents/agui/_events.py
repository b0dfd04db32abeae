"""What the chat makes of an AG-UI agent's events: text as it streams, `present_choices` calls as
buttons, and the interrupts a run ends with as questions to answer.

Each server-sent `data:` payload is validated into the protocol's own event union (`ag_ui.core.Event`).
A payload that is not JSON, or an event of a known type that does not validate, is malformed: the
reply stops there, saying so. An event whose type the protocol does not define is skipped, as a later
version's new events must be. Of the valid events the chat shows the assistant's text messages, its
`present_choices` calls, the run's error and its interrupts; it skips state, steps, reasoning,
activities, custom and raw events, messages in other roles, and calls of tools it does not know (the
agent's own tools, whose calls and results the agent handles itself), except that the calls an
interrupt names are kept with it: the run that resumes the reply sends them back. A run ends with
`RUN_FINISHED` or `RUN_ERROR`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ag_ui.core import (
    Event,
    EventType,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallChunkEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from ag_ui.core import Interrupt as AGUIInterrupt
from pydantic import TypeAdapter, ValidationError

from chat_ui._model._conversation import Interrupt, ToolCall
from chat_ui._model._reply import (
    ChoicesAsked,
    ChoicesPreparing,
    Interrupted,
    Notice,
    ReplyChunk,
    choices_not_shown,
)
from present_choices import TOOL_NAME, ChoicesError, parse_prompt
from present_choices._translation import spoken

_EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
_KNOWN_TYPES = frozenset(kind.value for kind in EventType)
SHOWN_ROLES = (None, "assistant")  # a text message without a role is the assistant's
QUOTED_LENGTH = 80  # characters of a malformed payload quoted in the notice


class MalformedEvent(Exception):
    """A payload that is not an AG-UI event; the message says what is wrong with it."""


def parse_event(data: str) -> Event | None:
    """The event one `data:` payload holds; None for a type the protocol does not define."""
    try:
        payload: Any = json.loads(data)
    except ValueError:
        raise MalformedEvent(f"data that is not JSON: {_quoted(data)}") from None
    kind = payload.get("type") if isinstance(payload, dict) else None
    if not isinstance(kind, str):
        raise MalformedEvent(f"data without an event type: {_quoted(data)}")
    if kind not in _KNOWN_TYPES:
        return None
    try:
        return _EVENTS.validate_python(payload)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'the event'}: {problem['msg']}"
            for problem in error.errors()
        )
        raise MalformedEvent(f"a {kind} event that is not valid ({problems})") from None


def _quoted(data: str) -> str:
    shown = data if len(data) <= QUOTED_LENGTH else data[:QUOTED_LENGTH] + "…"
    return json.dumps(shown)


@dataclass
class _ChoicesCall:
    """The run's `present_choices` call while its arguments arrive."""

    call_id: str
    arguments: list[str] = field(default_factory=list)
    complete: bool = False

    def shown(self) -> ReplyChunk:
        """The block the call asks, or the note saying why it cannot be shown."""
        try:
            return ChoicesAsked(parse_prompt(json.loads("".join(self.arguments))), self.call_id)
        except ValueError as error:  # not JSON, or a ChoicesError
            problems = error.problems if isinstance(error, ChoicesError) else []
            return choices_not_shown(problems or ["its arguments are not a JSON object"])


@dataclass
class RunReader:
    """One run's events, turned into the chunks of the chat's reply as they arrive.

    The run's text messages make one reply, a paragraph each. Its first `present_choices` call
    becomes the reply's block (a reply asks one question), shown when the run has finished, as the
    block of any agent is: the person answers it with their next message, which the chat takes once
    the reply is over (a frontend call ends the run anyway). A call's arguments are complete at its
    `TOOL_CALL_END`, or at the end of the run for a call sent as `TOOL_CALL_CHUNK`s.
    """

    ended: bool = False
    _said_text: bool = False
    _shown_message: str | None = None
    _hidden_messages: set[str] = field(default_factory=set)
    _choices: _ChoicesCall | None = None
    _last_chunked_call: str | None = None
    _calls: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    """Every call of the run by its id: the tool's name and its arguments as they arrived."""

    def read(self, event: Event) -> list[ReplyChunk]:
        """What `event` adds to the reply."""
        if isinstance(event, TextMessageStartEvent):
            if event.role not in SHOWN_ROLES:
                self._hidden_messages.add(event.message_id)
            return []
        if isinstance(event, TextMessageContentEvent):
            return self._text(event.message_id, event.delta)
        if isinstance(event, TextMessageChunkEvent):
            if event.role not in SHOWN_ROLES and event.message_id is not None:
                self._hidden_messages.add(event.message_id)
            return self._text(event.message_id, event.delta or "")
        if isinstance(event, ToolCallStartEvent):
            return self._call_started(event.tool_call_id, event.tool_call_name)
        if isinstance(event, ToolCallArgsEvent):
            self._arguments(event.tool_call_id, event.delta)
            return []
        if isinstance(event, ToolCallEndEvent):
            if self._choices is not None and self._choices.call_id == event.tool_call_id:
                self._choices.complete = True
            return []
        if isinstance(event, ToolCallChunkEvent):
            return self._call_chunk(event)
        if isinstance(event, RunErrorEvent):
            self.ended = True
            code = f" ({event.code})" if event.code else ""
            said = spoken().gettext(
                "The agent could not reply: {message}{code}", message=event.message, code=code
            )
            return [Notice(said)]
        if isinstance(event, RunFinishedEvent):
            self.ended = True
            asked = [self._choices.shown()] if self._choices is not None else []
            if isinstance(event.outcome, RunFinishedInterruptOutcome):
                interrupts = [self._kept(interrupt) for interrupt in event.outcome.interrupts]
                return [*asked, Interrupted(interrupts)]
            return asked
        return []

    def _kept(self, interrupt: AGUIInterrupt) -> Interrupt:
        """`interrupt` as the reply's message keeps it, with the call it names, as it arrived."""
        kept: Interrupt = {
            "id": interrupt.id,
            "message": interrupt.message or interrupt.reason,
            "reason": interrupt.reason,
        }
        call = self._calls.get(interrupt.tool_call_id or "")
        if interrupt.tool_call_id and call is not None:
            kept["tool_call"] = _tool_call(interrupt.tool_call_id, *call)
        if interrupt.response_schema is not None:
            kept["response_schema"] = interrupt.response_schema
        if interrupt.expires_at is not None:
            kept["expires_at"] = interrupt.expires_at
        return kept

    def _text(self, message_id: str | None, delta: str) -> list[ReplyChunk]:
        if not delta or message_id in self._hidden_messages:
            return []
        separator = ""
        if message_id != self._shown_message:
            separator = "\n\n" if self._said_text else ""
            self._shown_message = message_id
        self._said_text = True
        return [separator + delta]

    def _call_started(self, call_id: str, name: str) -> list[ReplyChunk]:
        self._calls.setdefault(call_id, (name, []))
        if name != TOOL_NAME or self._choices is not None:
            return []
        self._choices = _ChoicesCall(call_id)
        return [ChoicesPreparing()]

    def _arguments(self, call_id: str, delta: str) -> None:
        if call_id in self._calls:
            self._calls[call_id][1].append(delta)
        call = self._choices
        if call is not None and call.call_id == call_id and not call.complete:
            call.arguments.append(delta)

    def _call_chunk(self, event: ToolCallChunkEvent) -> list[ReplyChunk]:
        """A call in the short form: the first chunk names it, later ones may only add arguments."""
        call_id = event.tool_call_id or self._last_chunked_call
        if call_id is None:
            return []
        self._last_chunked_call = call_id
        chunks = self._call_started(call_id, event.tool_call_name) if event.tool_call_name else []
        self._arguments(call_id, event.delta or "")
        return chunks


def _tool_call(call_id: str, name: str, arguments: list[str]) -> ToolCall:
    """A call as kept: its arguments a JSON object (empty when they did not arrive as one)."""
    try:
        parsed = json.loads("".join(arguments) or "{}")
    except ValueError:
        parsed = {}
    return {"id": call_id, "name": name, "arguments": parsed if isinstance(parsed, dict) else {}}
