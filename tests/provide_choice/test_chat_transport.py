"""`ChatTransport`, the public base of a two-way chat's transport (Telegram's, Slack's, one written
elsewhere), with a chat that only records what it is asked to do: a question shown or mirrored is
one conversation, started and found by its message; one already ended is not mirrored; closing
lets the endings' messages out before the chat stops listening."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from typing import Any

from prompts import DATABASE_REQUEST

from provide_choice import Cancelled, InteractionSettings, QuestionRegistry, parse_request
from provide_choice.transports import (
    ChatConversation,
    ChatTransport,
    Followed,
    Interaction,
    PendingQuestion,
)

REQUEST = parse_request(DATABASE_REQUEST)
NO_CALLER: Any = None
"""The MCP client of a call, which a chat asks nothing of."""


class Silent:
    """The alerts of a chat that never fails."""

    def warn(self, line: str) -> None:
        raise AssertionError(line)

    def failed(self, question: PendingQuestion, problem: str) -> None:
        raise AssertionError(problem)


class Recorded(ChatConversation):
    def __init__(self, question: PendingQuestion, chat: RecordingChat) -> None:
        super().__init__(question, Silent(), "recording", (OSError,))
        self.chat = chat

    async def _send_current(self) -> None:
        async with self._lock:
            message = len(self.chat.said)
            self.chat.said.append(f"sent {self.question.interaction.asked.title}")
            self.chat.followed.known(message, self)

    def _ending(self) -> Coroutine[Any, Any, None]:
        async def edit() -> None:
            await asyncio.sleep(0.05)  # an edit takes a moment: closing waits for it
            self.chat.said.append(f"ended {self.question.outcome}")

        return edit()


class RecordingChat(ChatTransport[int, Recorded]):
    def __init__(self) -> None:
        self.followed: Followed[int, Recorded] = Followed()
        self.said: list[str] = []

    def _conversation(self, question: PendingQuestion) -> Recorded:
        return Recorded(question, self)

    def _wake(self) -> None:
        self.said.append("listening")

    async def _stop(self) -> None:
        self.said.append("stopped")


def asked(registry: QuestionRegistry) -> PendingQuestion:
    start = Interaction.start(REQUEST, InteractionSettings())
    interaction = Interaction(start.request, start.settings, time.monotonic() + 30)
    return registry.create(interaction, "recording")


async def test_a_shown_question_is_one_conversation_found_by_its_message() -> None:
    chat = RecordingChat()
    question = asked(QuestionRegistry())
    await chat.show(question, NO_CALLER)
    await asyncio.sleep(0.01)  # its message goes out
    assert chat.said == ["listening", "sent Database"]
    found = await chat.followed.of(1)
    assert found is not None
    assert found.question is question
    assert await chat.followed.of(2) is None


async def test_only_a_question_still_waiting_is_mirrored() -> None:
    chat = RecordingChat()
    registry = QuestionRegistry()
    ended = asked(registry)
    ended.finish(Cancelled())
    await chat.mirror(ended)
    assert chat.followed.conversations == []
    waiting = asked(registry)
    await chat.mirror(waiting)
    assert [conversation.question for conversation in chat.followed.conversations] == [waiting]


async def test_closing_lets_the_endings_out_before_the_chat_stops() -> None:
    chat = RecordingChat()
    question = asked(QuestionRegistry())
    await chat.mirror(question)
    await asyncio.sleep(0.01)  # its message goes out
    question.finish(Cancelled())
    await asyncio.sleep(0)  # the ending is under way
    await chat.aclose()
    assert chat.said[-2:] == [f"ended {question.outcome}", "stopped"]
