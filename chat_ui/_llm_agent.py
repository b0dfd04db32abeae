"""`LLMAgent`: a language model behind the chat, asking its questions with the `present_choices` tool.

Built on pydantic-ai: one library for OpenAI, every OpenAI-compatible server and Anthropic, with
offline test models. It is an optional extra (`agent-choices[llm]`), so only this module and the ones
it imports load it, and `chat_ui` imports this module lazily.

The model is offered `present_choices` as an output tool whose schema is the one `ChoicePrompt` model.
A valid call ends the model's turn and becomes the reply's choices block: the model never copies JSON
into its text. An invalid call goes back to it as a retry worded by `describe_errors`, at most
`choices_retries` times; after that the chat shows a short note instead of a block. Text is streamed
as it arrives, also when a call follows it in the same response: `iter` streams every model response
of the run (`run_stream` ends at the first text, and `run_stream_events` costs more per chunk). Each
turn the model is given the whole conversation, from the chat's history: its own calls as the calls
kept in their messages, each answered by a tool return, then what the person picked or typed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import (
    Agent,
    ModelRetry,
    PartDeltaEvent,
    PartStartEvent,
    RunContext,
    StructuredDict,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolOutput,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import (
    AgentStreamEvent,
    ModelMessage,
    ModelRequest,
    ModelRequestPart,
    ModelResponse,
    ModelResponsePart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model

from chat_ui._conversation import Message
from chat_ui._llm_errors import describe_failure
from chat_ui._llm_model import build_model
from chat_ui._reply import (
    TOOL_CALL_DESCRIPTION,
    AgentError,
    ChoicesAsked,
    ChoicesPreparing,
    ReplyChunk,
    choices_not_shown,
)
from present_choices import TOOL_NAME, ChoicesError, parameters_schema, parse_prompt
from present_choices._translation import spoken

DEFAULT_SYSTEM_PROMPT = f"""\
You are a helpful assistant in a chat app that can show buttons.

When the user has to decide between 2 to 4 clear options, call the `{TOOL_NAME}` tool instead of \
listing the options in your text: they appear as buttons under your message, and the user's next \
message is the `value` of the option they pick (or their own words if they type instead).
- Do not repeat the options in prose; a short sentence before the call is enough.
- Put the reason for the question, or what the choice changes, in the tool's `context`.
- Ask one question at a time, then wait for the answer.
For everything else, answer in Markdown."""

TOOL_RETURN = (
    "The choices were shown to the user as buttons. Their next message is the value of the "
    "option they picked, or their own words."
)
CHOICES_RETRIES = 2  # invalid calls sent back to the model before the chat gives up on the block

_ChoicesArguments = StructuredDict(
    parameters_schema(), name=TOOL_NAME, description=TOOL_CALL_DESCRIPTION
)


@dataclass
class _Run:
    """One reply under way (one agent serves many conversations at once): what validating its calls
    found, and whether it has shown text yet."""

    asked: ChoicesAsked | None = None
    problems: list[str] = field(default_factory=list)
    said_text: bool = False

    def chunk_of(self, event: AgentStreamEvent) -> ReplyChunk | None:
        """What the chat shows of a streamed event: text as it comes, and the placeholder as soon
        as a call begins. A retried response starts a paragraph of its own."""
        if isinstance(event, PartStartEvent) and isinstance(event.part, TextPart):
            separator = "\n\n" if self.said_text else ""
            self.said_text = True
            return separator + event.part.content
        if isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
            return event.delta.content_delta
        if isinstance(event, PartStartEvent) and isinstance(event.part, ToolCallPart):
            return ChoicesPreparing()
        return None


class LLMAgent:
    """An `Agent` backed by a language model: `model` is pydantic-ai's `provider:model` name (with
    `base_url` for an OpenAI-compatible server of one's own) or a pydantic-ai `Model`.

    `system_prompt` replaces the default guidance on when and how to use `present_choices`. The
    greeting is the app's, not the model's: the model is not called until the person says something.
    """

    def __init__(
        self,
        model: Model | str,
        *,
        base_url: str | None = None,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        choices_retries: int = CHOICES_RETRIES,
    ) -> None:
        self.model = build_model(model, base_url) if isinstance(model, str) else model
        self.system_prompt = system_prompt
        choices = ToolOutput(
            _ChoicesArguments,
            name=TOOL_NAME,
            description=TOOL_CALL_DESCRIPTION,
            max_retries=choices_retries,
        )
        self._agent: Agent[_Run, str | dict[str, Any]] = Agent(
            self.model,
            output_type=[str, choices],
            instructions=system_prompt,
            deps_type=_Run,
        )
        self._agent.output_validator(_check_choices)

    @property
    def greeting(self) -> str:
        return spoken().gettext(
            "Hello! You are chatting with `{model}`. Ask me anything: when there are a few clear "
            "options to choose from, I'll show them as buttons.",
            model=self.model.model_name,
        )

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        if not any(message["role"] == "user" for message in history):
            yield self.greeting
            return
        run = _Run()
        try:
            async with self._agent.iter(
                message_history=model_messages(history), deps=run
            ) as agent_run:
                async for node in agent_run:
                    if not Agent.is_model_request_node(node):
                        continue
                    async with node.stream(agent_run.ctx) as response:
                        async for event in response:
                            chunk = run.chunk_of(event)
                            if chunk is not None:
                                yield chunk
        except UnexpectedModelBehavior as error:
            if not run.problems:
                raise AgentError(describe_failure(error, self.model)) from error
            yield choices_not_shown(run.problems)
            return
        except Exception as error:
            raise AgentError(describe_failure(error, self.model)) from error
        if run.asked is not None:
            yield run.asked


def _check_choices(context: RunContext[_Run], output: str | dict[str, Any]) -> str | dict[str, Any]:
    """Validate a call as `present_choices` does, so that a retry says what `describe_errors` says."""
    if isinstance(output, str) or context.partial_output:
        return output
    try:
        prompt = parse_prompt(output)
    except ChoicesError as error:
        context.deps.problems = error.problems
        raise ModelRetry(f"{error}. Call {TOOL_NAME} again with valid arguments.") from None
    context.deps.asked = ChoicesAsked(prompt, context.tool_call_id or TOOL_NAME)
    return output


def model_messages(history: Sequence[Message]) -> list[ModelMessage]:
    """The conversation as the model's messages.

    Assistant messages before the person's first message are the app's greeting, not the model's.
    A block the model asked with a call goes back as that call, as kept in its message, answered by
    a tool return in the same request as the person's next message; a fence it wrote in its text
    goes back as text.
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


def _response(message: Message) -> tuple[ModelResponse, ToolReturnPart | None]:
    if "tool_call" not in message:
        return ModelResponse(parts=[TextPart(message["content"])]), None
    kept = message["tool_call"]
    call = ToolCallPart(kept["name"], dict(kept["arguments"]), tool_call_id=kept["id"])
    text = [TextPart(message["content"])] if message["content"] else []
    parts: list[ModelResponsePart] = [*text, call]
    return ModelResponse(parts=parts), ToolReturnPart(
        kept["name"], TOOL_RETURN, tool_call_id=kept["id"]
    )
