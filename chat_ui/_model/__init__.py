"""The conversation and its rules: no UI framework, no I/O; every front end and agent stands on it.

- `_conversation`: what a message is (`Message`, `ToolCall`, `Interrupt`, `Resume`), the state of a
  choices block derived from the messages after it (`block_state`, `answers`), what an agent is given
  (`conversation`), and a reply kept as cut off (`cut_off`).
- `_reply`: what an agent's reply is made of (`ReplyChunk`: text, `ChoicesPreparing`, `ChoicesAsked`,
  `Notice`, `ThreadStarted`, `Interrupted`), `AgentError`, and `ReplyDraft`, the chunks turned into
  the reply's message as they arrive.
- `_interrupts`: the state of each interrupt derived from the messages after it, when the agent goes
  on (`answers_complete`), and what goes back to it (`continued_reply`); `_answer_schema` reads what
  an interrupt's answer schema asks for (`read_schema`), as one of the few answers a chat can draw.
- `_open_blocks`: the blocks a later message may still decide, and what each new message decides
  (`OpenBlocks`, `BlockUpdate`).
- `_migration`: messages kept by an earlier version, brought up to the current shape.
"""

from chat_ui._model._conversation import (
    PENDING,
    SILENT_REPLY,
    BlockState,
    Interrupt,
    Message,
    Resume,
    Role,
    ToolCall,
    answers,
    asked_prompt,
    block_state,
    conversation,
    cut_off,
)
from chat_ui._model._interrupts import InterruptState, answers_complete, interrupt_states
from chat_ui._model._migration import upgrade_history
from chat_ui._model._open_blocks import BlockUpdate, InterruptStates, OpenBlocks
from chat_ui._model._reply import (
    AgentError,
    ChoicesAsked,
    ChoicesPreparing,
    Interrupted,
    Notice,
    ReplyChunk,
    ReplyDraft,
    ThreadStarted,
)

__all__ = [
    "PENDING",
    "SILENT_REPLY",
    "AgentError",
    "BlockState",
    "BlockUpdate",
    "ChoicesAsked",
    "ChoicesPreparing",
    "Interrupt",
    "InterruptState",
    "InterruptStates",
    "Interrupted",
    "Message",
    "Notice",
    "OpenBlocks",
    "ReplyChunk",
    "ReplyDraft",
    "Resume",
    "Role",
    "ThreadStarted",
    "ToolCall",
    "answers",
    "answers_complete",
    "asked_prompt",
    "block_state",
    "conversation",
    "cut_off",
    "interrupt_states",
    "upgrade_history",
]
