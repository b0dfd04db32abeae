"""Agents: what answers in the chat. An agent is given the conversation and yields its reply.

Yielding chunks (instead of returning one string) lets a real model stream its tokens; the chat shows
them as they arrive. An empty conversation asks for the greeting, so starting a conversation needs no
second method. Text is all most agents yield; one whose model asks with a tool call also yields the
events of `_reply` (see `LLMAgent`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from chat_ui._conversation import Message
from chat_ui._reply import ReplyChunk
from present_choices import present_choices, split_message

END_OF_SCRIPT = "(end of script)"
USER_TOKEN = "{{user}}"


class Agent(Protocol):
    """Anything that can reply in the chat."""

    def reply(self, history: Sequence[Message]) -> AsyncIterator[ReplyChunk]:
        """Yield the reply to `history` (user and assistant messages, oldest first) in chunks that
        are joined as they come. An empty history asks for the greeting. Raise `AgentError` to show
        the person a message of your own wording when the reply fails."""
        ...


class ScriptError(ValueError):
    """A script file that cannot be used; the message says what is allowed."""


class ScriptAgent:
    """Replies from a fixed list: the greeting first, then the i-th reply to the i-th user message.

    `{{user}}` in a reply stands for the user message it answers, so a script can echo a choice.
    """

    def __init__(self, replies: Sequence[str]) -> None:
        if not replies:
            raise ScriptError("a script needs at least the greeting")
        self.replies = list(replies)

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        user_messages = [message["content"] for message in history if message["role"] == "user"]
        turn = len(user_messages)
        if turn >= len(self.replies):
            yield END_OF_SCRIPT
            return
        text = self.replies[turn]
        yield text.replace(USER_TOKEN, user_messages[-1]) if user_messages else text


def load_script(path: str | Path) -> ScriptAgent:
    """Read a script file: a JSON array of strings, the greeting first, then one reply per turn."""
    allowed = "a script file must hold a JSON array of strings (the greeting, then one reply per user message)"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScriptError(f"script file {path} not found; {allowed}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(f"cannot read script file {path} ({error}); {allowed}") from None
    except ValueError as error:
        raise ScriptError(f"script file {path} is not valid JSON ({error}); {allowed}") from None
    if not isinstance(data, list) or not data or not all(isinstance(item, str) for item in data):
        raise ScriptError(f"script file {path} is not a non-empty array of strings; {allowed}")
    return ScriptAgent(data)


@dataclass(frozen=True)
class _Question:
    """One question of the demo, written as the fence the `present_choices` tool hands an agent."""

    question: str
    options: list[tuple[str, str]]  # (label, value)
    context: str | None = None

    def fence(self) -> str:
        options = [{"label": label, "value": value} for label, value in self.options]
        instructions = present_choices(self.question, options, self.context)
        return instructions[instructions.index("```choices") :]


_GREETING = (
    "Hi! I'm the **demo agent**. I run offline and ask my questions with buttons, the way a "
    "real agent does after calling the `present_choices` tool.\n\n"
    "- click an option, or use the keyboard: **Tab** to it, then **Enter** or **Space**\n"
    "- or simply type your own answer below"
)
_START = _Question(
    question="What shall we plan together?",
    context="Pick one and I'll ask a follow-up question that fits your answer.",
    options=[
        ("A weekend trip", "Let's plan a weekend trip"),
        ("Tonight's dinner", "Let's plan tonight's dinner"),
        ("A side project", "Let's plan a side project"),
    ],
)
_START_OVER = "Let's plan something else"
_DONE = "That's all, thanks"
_AGAIN = _Question(
    question="Shall we plan something else?",
    options=[("Yes, start over", _START_OVER), ("No, thanks", _DONE)],
)

_FOLLOW_UPS = {
    "Let's plan a weekend trip": (
        "A weekend away, lovely. Two days, leaving Saturday morning.",
        _Question(
            question="Where would you like to go?",
            context="I'll sketch an itinerary for the place you pick.",
            options=[
                ("Mountains", "The mountains"),
                ("Seaside", "The seaside"),
                ("City break", "A city break"),
            ],
        ),
    ),
    "Let's plan tonight's dinner": (
        "Dinner it is. Let's keep it under 30 minutes.",
        _Question(
            question="What are you in the mood for?",
            options=[
                ("Pasta", "Something with pasta"),
                ("Curry", "A quick curry"),
                ("Salad", "A big salad"),
            ],
        ),
    ),
    "Let's plan a side project": (
        "A side project: my favourite kind of plan.",
        _Question(
            question="What kind of project?",
            context="Small enough to finish in a weekend.",
            options=[
                ("Command-line tool", "A command-line tool"),
                ("Web app", "A small web app"),
                ("Game", "A tiny game"),
            ],
        ),
    ),
}

_PLANS = {
    "The mountains": "| Day | Plan |\n| --- | --- |\n| Saturday | Train up, afternoon ridge hike |\n| Sunday | Sunrise walk, lake swim, home |",
    "The seaside": "| Day | Plan |\n| --- | --- |\n| Saturday | Coastal path, fish and chips |\n| Sunday | Beach morning, ferry back |",
    "A city break": "| Day | Plan |\n| --- | --- |\n| Saturday | Old town, museum, night market |\n| Sunday | Brunch, park, late train |",
    "Something with pasta": "1. Boil the pasta\n2. Fry garlic in olive oil, add chilli and lemon\n3. Toss with parmesan and parsley",
    "A quick curry": "1. Soften onion, garlic and ginger\n2. Add curry paste, chickpeas and coconut milk\n3. Simmer 15 minutes, finish with spinach",
    "A big salad": "1. Roast chickpeas with paprika\n2. Chop cucumber, tomato and herbs\n3. Dress with yoghurt, lemon and tahini",
    "A command-line tool": "```python\nimport argparse\n\nparser = argparse.ArgumentParser(prog='todo')\nparser.add_argument('task')\nprint(f'Added: {parser.parse_args().task}')\n```",
    "A small web app": "```python\nfrom nicegui import ui\n\nui.label('My weekend app')\nui.run()\n```",
    "A tiny game": "```python\nimport random\n\nsecret = random.randint(1, 10)\nprint('Guess!' if int(input('1-10: ')) != secret else 'Yes!')\n```",
}


class DemoAgent:
    """An offline, deterministic agent that shows what choices look like in a conversation.

    It asks a question, asks a follow-up that depends on the answer, then replies using the chosen
    value. Its state is read from the conversation itself, like a real agent's would be. Replies are
    streamed in small chunks, `chunk_delay` seconds apart, so the chat's streaming path is exercised.
    """

    def __init__(self, chunk_delay: float = 0.04, chunk_size: int = 20) -> None:
        self.chunk_delay = chunk_delay
        self.chunk_size = chunk_size

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        text = self.compose(history)
        for start in range(0, len(text), self.chunk_size):
            if start:
                await asyncio.sleep(self.chunk_delay)
            yield text[start : start + self.chunk_size]

    def compose(self, history: Sequence[Message]) -> str:
        """The whole reply to `history`."""
        if not history or history[-1]["role"] != "user":
            return f"{_GREETING}\n\n{_START.fence()}"
        answer = history[-1]["content"]
        if answer == _START_OVER:
            return f"Happy to. Here we go again!\n\n{_START.fence()}"
        if answer == _DONE:
            return "You're welcome! Scroll up to see how each question was answered."
        if answer in _FOLLOW_UPS:
            intro, question = _FOLLOW_UPS[answer]
            return f"{intro}\n\n{question.fence()}"
        if answer in _PLANS:
            plan = _PLANS[answer]
            return (
                f"Great choice: **{answer.lower()}**. Here's a plan:\n\n{plan}\n\n{_AGAIN.fence()}"
            )
        return self._not_understood(answer, history)

    def _not_understood(self, answer: str, history: Sequence[Message]) -> str:
        """Typed text: say so, and ask the last question again (the old block is now outdated)."""
        fences = [
            segment.raw
            for message in history
            if message["role"] == "assistant"
            for segment in split_message(message["content"])
            if segment.kind == "choices"
        ]
        return (
            f"You wrote “{answer}”. I'm only a demo, so I can't take free-form answers, "
            "but a real agent would. Here's my last question again:\n\n"
            + (fences[-1] if fences else _START.fence())
        )
