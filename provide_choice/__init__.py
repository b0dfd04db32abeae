"""provide_choice: ask a person a structured question over MCP and get one normalized answer.

The request and response models, validation, settings and the transport seam import fast. The MCP
server (`create_server`, which loads the MCP SDK) and the terminal flow (`run_terminal_flow`, which
loads questionary) load on first use, so importing this package never slows a server's start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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
from provide_choice._server._unattended import AnswerPolicy
from provide_choice._settings_file import (
    HOME_VARIABLE,
    load_settings,
    save_settings,
    settings_path,
)
from provide_choice._transports._base import Transport, Transports
from provide_choice._transports._registry import choose_transport, register_transport
from provide_choice._transports._terminal._transport import TerminalTransport

if TYPE_CHECKING:
    from provide_choice._server._mcp_server import create_server
    from provide_choice._transports._terminal_view._flow import run_terminal_flow

_LAZY = {
    "create_server": "provide_choice._server._mcp_server",
    "run_terminal_flow": "provide_choice._transports._terminal_view._flow",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'provide_choice' has no attribute {name!r}")


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
