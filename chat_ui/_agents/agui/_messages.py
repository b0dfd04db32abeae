"""What the chat posts to an AG-UI agent: the conversation as AG-UI messages, and `present_choices`
declared as a frontend tool.

A frontend tool is one the agent calls and the front end carries out: the call ends the agent's run,
and the next run gives the call back answered by a `tool` message. Here the chat carries it out by
showing the call's arguments as buttons, so the answer is what the person did next (the value they
picked, or their own words), which also goes to the agent as their next message (a click sends the
option's value as the person's message, on every surface of the chat). The call goes back as the
assistant message keeps it (`Message.tool_call`: its id, and its arguments as the chat validated
them), so the agent sees its own call answered.

A run that continues a reply which ended with interrupts (see `continued_reply`) carries one
`resume` entry per interrupt, and resends that reply with the tool calls its interrupts name and no
result for them (pydantic-ai's adapter runs an approved call from there), followed by the message the
person typed instead of answering, if they did. Once continued, a reply goes back as its text: the
agent ran or skipped those calls itself, and the chat never saw their results.

Message ids are the messages' places in the conversation (`user-3`): stable from run to run, since
the chat only ever appends to a conversation, and unique in it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ag_ui.core import (
    AssistantMessage,
    FunctionCall,
    ResumeEntry,
    RunAgentInput,
    Tool,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from ag_ui.core import Message as AGUIMessage

from chat_ui._model._conversation import Message
from chat_ui._model._conversation import ToolCall as KeptCall
from chat_ui._model._interrupts import continued_reply
from chat_ui._model._reply import TOOL_CALL_DESCRIPTION
from present_choices import TOOL_NAME, parameters_schema

NOT_ANSWERED = "The user did not answer; they were asked again instead."
"""The result of a call that the next reply passed by before the person said anything (a history
the chat itself never makes: a user message always comes between two replies)."""


def choices_tool() -> Tool:
    """`present_choices` as a frontend tool, its parameters the `ChoicePrompt` schema."""
    return Tool(name=TOOL_NAME, description=TOOL_CALL_DESCRIPTION, parameters=parameters_schema())


def run_input(history: Sequence[Message], thread_id: str, run_id: str) -> RunAgentInput:
    """The body of one run: the conversation so far in the thread, with the chat's frontend tool,
    and the answers to the interrupts of the reply it continues."""
    continued = continued_reply(history)
    resume = None
    messages = agui_messages(history)
    if continued is not None:
        messages = agui_messages(continued.before)
        messages.append(_assistant(continued.reply, len(continued.before), interrupted=True))
        if continued.typed is not None:
            index = len(history) - 1
            messages.append(UserMessage(id=f"user-{index}", content=continued.typed["content"]))
        resume = [ResumeEntry.model_validate(entry) for entry in continued.resume]
    return RunAgentInput(
        thread_id=thread_id,
        run_id=run_id,
        messages=messages,
        tools=[choices_tool()],
        context=[],
        state={},
        forwarded_props={},
        resume=resume,
    )


def agui_messages(history: Sequence[Message]) -> list[AGUIMessage]:
    """The conversation as AG-UI messages.

    Assistant messages before the person's first message are the app's greeting, not the agent's.
    A block the agent asked with a call goes back as that call, answered by a `tool` message just
    before the person's next message, which holds the same words; a fence it wrote in its text goes
    back as text.
    """
    messages: list[AGUIMessage] = []
    unanswered: KeptCall | None = None
    for index, message in enumerate(history):
        if message["role"] == "user":
            if unanswered is not None:
                messages.append(_result(unanswered, message["content"], index))
                unanswered = None
            messages.append(UserMessage(id=f"user-{index}", content=message["content"]))
        elif message["role"] == "assistant" and messages:
            if unanswered is not None:
                messages.append(_result(unanswered, NOT_ANSWERED, index))
            unanswered = message.get("tool_call")
            messages.append(_assistant(message, index))
    return messages


def _assistant(message: Message, index: int, *, interrupted: bool = False) -> AssistantMessage:
    """A reply as the agent made it: its text, its `present_choices` call, and when `interrupted`
    (the run continues it) the calls its interrupts name."""
    calls = [message["tool_call"]] if "tool_call" in message else []
    if interrupted:
        calls += [i["tool_call"] for i in message.get("interrupts", []) if "tool_call" in i]
    if not calls:
        return AssistantMessage(id=f"assistant-{index}", content=message["content"])
    return AssistantMessage(
        id=f"assistant-{index}",
        content=message["content"] or None,
        tool_calls=[_call(call) for call in calls],
    )


def _call(call: KeptCall) -> ToolCall:
    arguments = json.dumps(call["arguments"], ensure_ascii=False)
    return ToolCall(id=call["id"], function=FunctionCall(name=call["name"], arguments=arguments))


def _result(call: KeptCall, answer: str, index: int) -> ToolMessage:
    return ToolMessage(id=f"tool-{index}", tool_call_id=call["id"], content=answer)
