"""What the chat posts to an AG-UI agent: the conversation as AG-UI messages, and `present_choices`
declared as a frontend tool.

A frontend tool is one the agent calls and the front end carries out: the call ends the agent's run,
and the next run gives the call back answered by a `tool` message. Here the chat carries it out by
showing the call's arguments as buttons, so the answer is what the person did next (the value they
picked, or their own words), which also goes to the agent as their next message (a click sends the
option's value as the person's message, on every surface of the chat). The call goes back as the
assistant message keeps it (`Message.tool_call`: its id, and its arguments as the chat validated
them), so the agent sees its own call answered.

Message ids are the messages' places in the conversation (`user-3`): stable from run to run, since
the chat only ever appends to a conversation, and unique in it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from ag_ui.core import (
    AssistantMessage,
    FunctionCall,
    RunAgentInput,
    Tool,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from ag_ui.core import Message as AGUIMessage

from chat_ui._conversation import Message
from chat_ui._conversation import ToolCall as KeptCall
from chat_ui._reply import TOOL_CALL_DESCRIPTION
from present_choices import TOOL_NAME, parameters_schema

NOT_ANSWERED = "The user did not answer; they were asked again instead."
"""The result of a call that the next reply passed by before the person said anything (a history
the chat itself never makes: a user message always comes between two replies)."""


def choices_tool() -> Tool:
    """`present_choices` as a frontend tool, its parameters the `ChoicePrompt` schema."""
    return Tool(name=TOOL_NAME, description=TOOL_CALL_DESCRIPTION, parameters=parameters_schema())


def run_input(history: Sequence[Message], thread_id: str, run_id: str) -> RunAgentInput:
    """The body of one run: the conversation so far in the thread, with the chat's frontend tool."""
    return RunAgentInput(
        thread_id=thread_id,
        run_id=run_id,
        messages=agui_messages(history),
        tools=[choices_tool()],
        context=[],
        state={},
        forwarded_props={},
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


def _assistant(message: Message, index: int) -> AssistantMessage:
    call = message.get("tool_call")
    if call is None:
        return AssistantMessage(id=f"assistant-{index}", content=message["content"])
    arguments = json.dumps(call["arguments"], ensure_ascii=False)
    function = FunctionCall(name=call["name"], arguments=arguments)
    return AssistantMessage(
        id=f"assistant-{index}",
        content=message["content"] or None,
        tool_calls=[ToolCall(id=call["id"], function=function)],
    )


def _result(call: KeptCall, answer: str, index: int) -> ToolMessage:
    return ToolMessage(id=f"tool-{index}", tool_call_id=call["id"], content=answer)
