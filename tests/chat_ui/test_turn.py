"""One turn of an agent without a UI: the draft as it grows, and what the turn ends as (the reply and
the app's notices, or one notice when the agent fails)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from itertools import pairwise

from chat_ui._agents import DemoAgent, ScriptAgent
from chat_ui._conversation import Message
from chat_ui._reply import AgentError, Notice, ReplyChunk
from chat_ui._turn import Turn, waits_for_reply


async def drafts(turn: Turn) -> list[str]:
    return [draft.text() async for draft in turn.stream()]


async def test_the_draft_grows_and_the_turn_ends_as_the_reply() -> None:
    turn = Turn(DemoAgent(chunk_delay=0, chunk_size=50), [], interval=0)
    texts = await drafts(turn)
    assert len(texts) > 3
    assert all(later.startswith(earlier) for earlier, later in pairwise(texts))
    (message,) = turn.added
    assert message["role"] == "assistant"
    assert message["content"] == texts[-1]
    assert "```choices" in message["content"]


async def test_the_agent_is_given_the_conversation_without_notices() -> None:
    history: list[Message] = [
        {"role": "assistant", "content": "Hi"},
        {"role": "user", "content": "one"},
        {"role": "error", "content": "failed"},
        {"role": "user", "content": "two"},
    ]
    turn = Turn(ScriptAgent(["Hi", "first", "you said {{user}}"]), history)
    await drafts(turn)
    assert turn.added == [{"role": "assistant", "content": "you said two"}]


class Failing:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        yield "half a repl"
        raise self.error


async def test_a_failing_agent_ends_the_turn_with_one_notice() -> None:
    turn = Turn(Failing(RuntimeError("boom")), [{"role": "user", "content": "hi"}])
    await drafts(turn)
    assert turn.added == [
        {
            "role": "error",
            "content": "The agent could not reply (RuntimeError: boom). Send your message again "
            "to retry.",
        }
    ]
    worded = Turn(Failing(AgentError("The model refused the key.")), [])
    await drafts(worded)
    assert worded.added == [{"role": "error", "content": "The model refused the key."}]


class Noting:
    async def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        yield "Here."
        yield Notice("The assistant's choices could not be shown.")


async def test_the_app_s_notices_follow_the_reply() -> None:
    turn = Turn(Noting(), [])
    await drafts(turn)
    assert turn.added == [
        {"role": "assistant", "content": "Here."},
        {"role": "error", "content": "The assistant's choices could not be shown."},
    ]


def test_the_agent_speaks_first_and_after_the_person() -> None:
    assert waits_for_reply([])
    assert waits_for_reply(
        [{"role": "assistant", "content": "Hi"}, {"role": "user", "content": "x"}]
    )
    assert not waits_for_reply([{"role": "assistant", "content": "Hi"}])
    assert not waits_for_reply(
        [{"role": "user", "content": "x"}, {"role": "error", "content": "!"}]
    )
