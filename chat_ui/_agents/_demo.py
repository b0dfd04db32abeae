"""`DemoAgent`: the offline agent `choices-chat` runs by default, asking its questions with buttons.

It writes each question as the ```choices fence the `present_choices` tool hands a real agent, so the
chat's whole path (streaming, the fence split into a block, a click sent as the next message) is the
one a real agent takes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from chat_ui._model import Message
from present_choices import present_choices, split_message


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
