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
turn the model is given the whole conversation, from the chat's history (see `model_turn`).

The agent's own tools (`tools`) run as the model calls them; one declared `requires_approval=True`
ends the reply waiting for the person (pydantic-ai's `DeferredToolRequests`), shown as an approval
group, and the person's decision continues the run (`DeferredToolResults`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai import (
    Agent,
    DeferredToolRequests,
    ModelRetry,
    PartDeltaEvent,
    PartStartEvent,
    RunContext,
    StructuredDict,
    TextPart,
    TextPartDelta,
    Tool,
    ToolCallPart,
    ToolOutput,
    UnexpectedModelBehavior,
)
from pydantic_ai.messages import AgentStreamEvent
from pydantic_ai.models import Model

from chat_ui._agents.llm._errors import describe_failure
from chat_ui._agents.llm._messages import model_turn
from chat_ui._agents.llm._model import build_model
from chat_ui._model._conversation import Message, ToolCall
from chat_ui._model._interrupts import approval
from chat_ui._model._reply import (
    TOOL_CALL_DESCRIPTION,
    AgentError,
    ChoicesAsked,
    ChoicesPreparing,
    Interrupted,
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
            return ChoicesPreparing() if event.part.tool_name == TOOL_NAME else None
        return None


class LLMAgent:
    """An `Agent` backed by a language model: `model` is pydantic-ai's `provider:model` name (with
    `base_url` for an OpenAI-compatible server of one's own) or a pydantic-ai `Model`.

    `system_prompt` replaces the default guidance on when and how to use `present_choices`;
    `tools` are the agent's own (pydantic-ai `Tool`s, or functions), and one declared
    `Tool(fn, requires_approval=True)` waits for the person's approval. The greeting is the app's,
    not the model's: the model is not called until the person says something.
    """

    def __init__(
        self,
        model: Model | str,
        *,
        base_url: str | None = None,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        choices_retries: int = CHOICES_RETRIES,
        tools: Sequence[Tool[Any] | Callable[..., Any]] = (),
    ) -> None:
        self.model = build_model(model, base_url) if isinstance(model, str) else model
        self.system_prompt = system_prompt
        choices = ToolOutput(
            _ChoicesArguments,
            name=TOOL_NAME,
            description=TOOL_CALL_DESCRIPTION,
            max_retries=choices_retries,
        )
        self._agent: Agent[_Run, _Output] = Agent(
            self.model,
            output_type=[str, choices, DeferredToolRequests],
            instructions=system_prompt,
            deps_type=_Run,
            tools=tools,
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
        turn = model_turn(history)
        try:
            async with self._agent.iter(
                turn.prompt,
                message_history=turn.history,
                deferred_tool_results=turn.decisions,
                deps=run,
            ) as agent_run:
                async for node in agent_run:
                    if not Agent.is_model_request_node(node):
                        continue
                    async with node.stream(agent_run.ctx) as response:
                        async for event in response:
                            chunk = run.chunk_of(event)
                            if chunk is not None:
                                yield chunk
                output = agent_run.result.output if agent_run.result is not None else None
        except UnexpectedModelBehavior as error:
            if not run.problems:
                raise AgentError(describe_failure(error, self.model)) from error
            yield choices_not_shown(run.problems)
            return
        except Exception as error:
            raise AgentError(describe_failure(error, self.model)) from error
        if run.asked is not None:
            yield run.asked
        if isinstance(output, DeferredToolRequests) and output.approvals:
            yield Interrupted([approval(_kept(call)) for call in output.approvals])


_Output = str | dict[str, Any] | DeferredToolRequests


def _kept(call: ToolCallPart) -> ToolCall:
    return {"id": call.tool_call_id, "name": call.tool_name, "arguments": call.args_as_dict()}


def _check_choices(context: RunContext[_Run], output: _Output) -> _Output:
    """Validate a call as `present_choices` does, so that a retry says what `describe_errors` says."""
    if not isinstance(output, dict) or context.partial_output:
        return output
    try:
        prompt = parse_prompt(output)
    except ChoicesError as error:
        context.deps.problems = error.problems
        raise ModelRetry(f"{error}. Call {TOOL_NAME} again with valid arguments.") from None
    context.deps.asked = ChoicesAsked(prompt, context.tool_call_id or TOOL_NAME)
    return output
