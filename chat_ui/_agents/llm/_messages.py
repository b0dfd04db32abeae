"""What `LLMAgent` gives its model each turn: the conversation as pydantic-ai messages, and, for a turn
that continues a reply which ended with approvals, the person's decisions as `DeferredToolResults`.

A block the model asked with a `present_choices` call goes back as that call, as kept in its
message, answered by a tool return in the same request as the person's next message; a fence it
wrote in its text goes back as text. A reply that ended waiting for approvals goes back, on the turn
that continues it, with the calls waiting for them and no return (pydantic-ai runs an approved call
from there, and returns a denied one's reason to the model); once continued, as its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic_ai import DeferredToolResults, ToolApproved, ToolDenied
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelRequestPart,
    ModelResponse,
    ModelResponsePart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from chat_ui._model._conversation import Message, Resume
from chat_ui._model._interrupts import continued_reply

TOOL_RETURN = (
    "The choices were shown to the user as buttons. Their next message is the value of the "
    "option they picked, or their own words."
)
CANCELLED = "Cancelled by user."  # what pydantic-ai's AG-UI adapter tells the model of a cancel


@dataclass(frozen=True)
class ModelTurn:
    """One run of the model: the history it is given, the prompt it answers (None: the history
    ends with it, or the run goes on from approvals), and the decisions on those approvals."""

    history: list[ModelMessage]
    prompt: str | None = None
    decisions: DeferredToolResults | None = None


def model_turn(history: Sequence[Message]) -> ModelTurn:
    """The model's run for `history` (the conversation, see `conversation`)."""
    continued = continued_reply(history)
    if continued is None:
        return ModelTurn(model_messages(history))
    messages = model_messages(continued.before)
    messages.append(_response(continued.reply, interrupted=True)[0])
    decisions: dict[str, bool | ToolApproved | ToolDenied] = {
        entry["interrupt_id"]: _decision(entry) for entry in continued.resume
    }
    typed = continued.typed["content"] if continued.typed is not None else None
    return ModelTurn(messages, typed, DeferredToolResults(approvals=decisions))


def _decision(entry: Resume) -> ToolApproved | ToolDenied:
    """The person's answer to an approval, read as pydantic-ai's AG-UI adapter reads it."""
    payload = entry.get("payload")
    if entry["status"] == "cancelled" or not isinstance(payload, dict):
        return ToolDenied(CANCELLED)
    if payload.get("approved") is True:
        return ToolApproved()
    reason = payload.get("reason")
    return ToolDenied(reason) if isinstance(reason, str) and reason.strip() else ToolDenied()


def model_messages(history: Sequence[Message]) -> list[ModelMessage]:
    """The conversation as the model's messages.

    Assistant messages before the person's first message are the app's greeting, not the model's.
    """
    messages: list[ModelMessage] = []
    tool_return: ToolReturnPart | None = None
    for message in history:
        if message["role"] == "user":
            parts: list[ModelRequestPart] = [tool_return] if tool_return else []
            messages.append(ModelRequest(parts=[*parts, UserPromptPart(message["content"])]))
            tool_return = None
        elif message["role"] == "assistant" and messages:
            if tool_return is not None:  # two replies in a row: the call still needs its return
                messages.append(ModelRequest(parts=[tool_return]))
            response, tool_return = _response(message)
            messages.append(response)
    return messages


def _response(
    message: Message, *, interrupted: bool = False
) -> tuple[ModelResponse, ToolReturnPart | None]:
    """A reply as the model made it, and the return its `present_choices` call needs; when
    `interrupted` (this turn continues it), with the calls waiting for approval."""
    text: list[ModelResponsePart] = [TextPart(message["content"])] if message["content"] else []
    waiting: list[ModelResponsePart] = []
    if interrupted:
        for interrupt in message.get("interrupts", []):
            if "tool_call" in interrupt:
                asked = interrupt["tool_call"]
                waiting.append(ToolCallPart(asked["name"], dict(asked["arguments"]), asked["id"]))
    if "tool_call" not in message:
        return ModelResponse(parts=[*text, *waiting] or [TextPart(message["content"])]), None
    kept = message["tool_call"]
    call = ToolCallPart(kept["name"], dict(kept["arguments"]), tool_call_id=kept["id"])
    return ModelResponse(parts=[*text, call, *waiting]), ToolReturnPart(
        kept["name"], TOOL_RETURN, tool_call_id=kept["id"]
    )
