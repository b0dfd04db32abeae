"""provide_choice: ask a person a structured question over MCP and get one normalized answer.

`import provide_choice` loads nothing but this list of names: each is loaded from its module on
first use (PEP 562), the request and response models with pydantic, `create_server` with the MCP
SDK, `run_terminal_flow` with questionary. So a program that imports the package to ask one thing,
the `provide-choice` and `choice-terminal` commands (their `--help` in a blink), and the server
itself pay only for what they use.

The built-in transports are registered when the table of transport names is first read (wherever
a request, a setting or a response is first checked), not when the package is imported: the package
names their registry here once, and the table imports it then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names
from provide_choice._contract import _transport_table

if TYPE_CHECKING:
    from provide_choice._contract._answer_checks import outcome_problems
    from provide_choice._contract._answers_file import (
        AnswersFile,
        AnswersFileError,
        RuleMisfit,
        load_answers_file,
    )
    from provide_choice._contract._batch import BatchQuestion, BatchRequest
    from provide_choice._contract._call import SessionPoll, parse_call
    from provide_choice._contract._meaning import validate_outcome
    from provide_choice._contract._outcomes import (
        Answered,
        BatchAnswered,
        Cancelled,
        Ending,
        PendingLaunch,
        Reply,
        StillOpen,
        TimedOut,
    )
    from provide_choice._contract._request import (
        ProvideChoiceOption,
        ProvideChoiceRequest,
        SelectionLimits,
        SelectionMode,
        parse_request,
    )
    from provide_choice._contract._response import (
        ActionStatus,
        AnsweredBy,
        ProvideChoiceResponse,
        QuestionAnswer,
        Selection,
        normalize,
        summarize,
    )
    from provide_choice._contract._settings import InteractionSettings
    from provide_choice._contract._tool_schema import tool_input_schema
    from provide_choice._contract._transport_table import TransportName
    from provide_choice._history._recorder import HistoryRecorder
    from provide_choice._question import (
        AgentClient,
        Interaction,
        PendingQuestion,
        QuestionRecorder,
        QuestionRegistry,
        TransportError,
    )
    from provide_choice._server._mcp_server import create_server
    from provide_choice._server._unattended import AnswerPolicy
    from provide_choice._settings_file import (
        HOME_VARIABLE,
        load_settings,
        save_settings,
        settings_path,
    )
    from provide_choice._transports._base import Transport, Transports
    from provide_choice._transports._plug_ins import register_transport
    from provide_choice._transports._registry import choose_transport
    from provide_choice._transports._terminal._transport import TerminalTransport
    from provide_choice._transports._terminal_view._flow import run_terminal_flow

_transport_table.built_ins_in("provide_choice._transports._kinds")

_MODULES = {
    "ActionStatus": "provide_choice._contract._response",
    "AgentClient": "provide_choice._question",
    "AnswerPolicy": "provide_choice._server._unattended",
    "Answered": "provide_choice._contract._outcomes",
    "AnsweredBy": "provide_choice._contract._response",
    "AnswersFile": "provide_choice._contract._answers_file",
    "AnswersFileError": "provide_choice._contract._answers_file",
    "BatchAnswered": "provide_choice._contract._outcomes",
    "BatchQuestion": "provide_choice._contract._batch",
    "BatchRequest": "provide_choice._contract._batch",
    "Cancelled": "provide_choice._contract._outcomes",
    "Ending": "provide_choice._contract._outcomes",
    "HOME_VARIABLE": "provide_choice._settings_file",
    "HistoryRecorder": "provide_choice._history._recorder",
    "Interaction": "provide_choice._question",
    "InteractionSettings": "provide_choice._contract._settings",
    "PendingLaunch": "provide_choice._contract._outcomes",
    "PendingQuestion": "provide_choice._question",
    "ProvideChoiceOption": "provide_choice._contract._request",
    "ProvideChoiceRequest": "provide_choice._contract._request",
    "ProvideChoiceResponse": "provide_choice._contract._response",
    "QuestionAnswer": "provide_choice._contract._response",
    "QuestionRecorder": "provide_choice._question",
    "QuestionRegistry": "provide_choice._question",
    "Reply": "provide_choice._contract._outcomes",
    "RuleMisfit": "provide_choice._contract._answers_file",
    "Selection": "provide_choice._contract._response",
    "SelectionLimits": "provide_choice._contract._request",
    "SelectionMode": "provide_choice._contract._request",
    "SessionPoll": "provide_choice._contract._call",
    "StillOpen": "provide_choice._contract._outcomes",
    "TerminalTransport": "provide_choice._transports._terminal._transport",
    "TimedOut": "provide_choice._contract._outcomes",
    "Transport": "provide_choice._transports._base",
    "TransportError": "provide_choice._question",
    "TransportName": "provide_choice._contract._transport_table",
    "Transports": "provide_choice._transports._base",
    "choose_transport": "provide_choice._transports._registry",
    "create_server": "provide_choice._server._mcp_server",
    "load_answers_file": "provide_choice._contract._answers_file",
    "load_settings": "provide_choice._settings_file",
    "normalize": "provide_choice._contract._response",
    "outcome_problems": "provide_choice._contract._answer_checks",
    "parse_call": "provide_choice._contract._call",
    "parse_request": "provide_choice._contract._request",
    "register_transport": "provide_choice._transports._plug_ins",
    "run_terminal_flow": "provide_choice._transports._terminal_view._flow",
    "save_settings": "provide_choice._settings_file",
    "settings_path": "provide_choice._settings_file",
    "summarize": "provide_choice._contract._response",
    "tool_input_schema": "provide_choice._contract._tool_schema",
    "validate_outcome": "provide_choice._contract._meaning",
}
"""Where each public name lives: loaded from there on first use (PEP 562)."""

__all__ = [
    "HOME_VARIABLE",
    "ActionStatus",
    "AgentClient",
    "AnswerPolicy",
    "Answered",
    "AnsweredBy",
    "AnswersFile",
    "AnswersFileError",
    "BatchAnswered",
    "BatchQuestion",
    "BatchRequest",
    "Cancelled",
    "Ending",
    "HistoryRecorder",
    "Interaction",
    "InteractionSettings",
    "PendingLaunch",
    "PendingQuestion",
    "ProvideChoiceOption",
    "ProvideChoiceRequest",
    "ProvideChoiceResponse",
    "QuestionAnswer",
    "QuestionRecorder",
    "QuestionRegistry",
    "Reply",
    "RuleMisfit",
    "Selection",
    "SelectionLimits",
    "SelectionMode",
    "SessionPoll",
    "StillOpen",
    "TerminalTransport",
    "TimedOut",
    "Transport",
    "TransportError",
    "TransportName",
    "Transports",
    "choose_transport",
    "create_server",
    "load_answers_file",
    "load_settings",
    "normalize",
    "outcome_problems",
    "parse_call",
    "parse_request",
    "register_transport",
    "run_terminal_flow",
    "save_settings",
    "settings_path",
    "summarize",
    "tool_input_schema",
    "validate_outcome",
]


__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)
