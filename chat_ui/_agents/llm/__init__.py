"""A language model behind the chat, through pydantic-ai (the `llm` extra; importing this package
loads pydantic-ai): `_agent` (`LLMAgent`, the turn it runs), `_messages` (the conversation as the
model's messages, and the person's decisions on approvals), `_model` (the model from its
`provider:model` name), `_errors` (a failed request in the person's words), `_user_tools` (the
agent's own tools, found by name for `choices-chat --tools`)."""

from chat_ui._agents.llm._agent import LLMAgent

__all__ = ["LLMAgent"]
