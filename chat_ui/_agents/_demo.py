"""`DemoAgent`: the offline agent `choices-chat` runs by default, asking its questions with buttons.

It writes each question as the ```choices fence the `present_choices` tool hands a real agent, so the
chat's whole path (streaming, the fence split into a block, a click sent as the next message) is the
one a real agent takes. It speaks the chat's language (`choices-chat --lang`, else the browser's:
the chat says which around each reply, `present_choices._translation.spoken`), its questions and
their options too, so a click sends the option's value in that language; it understands a value in
any language it speaks (a conversation begun in one language goes on in another). Its code
examples stay code.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass

from chat_ui._model import Message
from present_choices import present_choices, split_message
from present_choices._translation import (
    N_,
    Translation,
    available_locales,
    spoken,
    translation,
)


@dataclass(frozen=True)
class _Question:
    """One question of the demo, written as the fence the `present_choices` tool hands an agent;
    its words are messages, said in the language of the conversation."""

    question: str
    options: list[tuple[str, str]]  # (label, value)
    context: str | None = None

    def fence(self, words: Translation) -> str:
        options = [
            {"label": words.gettext(label), "value": words.gettext(value)}
            for label, value in self.options
        ]
        context = None if self.context is None else words.gettext(self.context)
        instructions = present_choices(words.gettext(self.question), options, context)
        return instructions[instructions.index("```choices") :]

    def values(self) -> Iterator[str]:
        return (value for _label, value in self.options)


_GREETING = N_(
    "Hi! I'm the **demo agent**. I run offline and ask my questions with buttons, the way a "
    "real agent does after calling the `present_choices` tool.\n\n"
    "- click an option, or use the keyboard: **Tab** to it, then **Enter** or **Space**\n"
    "- or simply type your own answer below"
)
_START = _Question(
    question=N_("What shall we plan together?"),
    context=N_("Pick one and I'll ask a follow-up question that fits your answer."),
    options=[
        (N_("A weekend trip"), N_("Let's plan a weekend trip")),
        (N_("Tonight's dinner"), N_("Let's plan tonight's dinner")),
        (N_("A side project"), N_("Let's plan a side project")),
    ],
)
_START_OVER = N_("Let's plan something else")
_DONE = N_("That's all, thanks")
_AGAIN = _Question(
    question=N_("Shall we plan something else?"),
    options=[(N_("Yes, start over"), _START_OVER), (N_("No, thanks"), _DONE)],
)

_FOLLOW_UPS = {
    N_("Let's plan a weekend trip"): (
        N_("A weekend away, lovely. Two days, leaving Saturday morning."),
        _Question(
            question=N_("Where would you like to go?"),
            context=N_("I'll sketch an itinerary for the place you pick."),
            options=[
                (N_("Mountains"), N_("The mountains")),
                (N_("Seaside"), N_("The seaside")),
                (N_("City break"), N_("A city break")),
            ],
        ),
    ),
    N_("Let's plan tonight's dinner"): (
        N_("Dinner it is. Let's keep it under 30 minutes."),
        _Question(
            question=N_("What are you in the mood for?"),
            options=[
                (N_("Pasta"), N_("Something with pasta")),
                (N_("Curry"), N_("A quick curry")),
                (N_("Salad"), N_("A big salad")),
            ],
        ),
    ),
    N_("Let's plan a side project"): (
        N_("A side project: my favourite kind of plan."),
        _Question(
            question=N_("What kind of project?"),
            context=N_("Small enough to finish in a weekend."),
            options=[
                (N_("Command-line tool"), N_("A command-line tool")),
                (N_("Web app"), N_("A small web app")),
                (N_("Game"), N_("A tiny game")),
            ],
        ),
    ),
}

_PLANS = {
    N_("The mountains"): N_(
        "| Day | Plan |\n| --- | --- |\n| Saturday | Train up, afternoon ridge hike |\n"
        "| Sunday | Sunrise walk, lake swim, home |"
    ),
    N_("The seaside"): N_(
        "| Day | Plan |\n| --- | --- |\n| Saturday | Coastal path, fish and chips |\n"
        "| Sunday | Beach morning, ferry back |"
    ),
    N_("A city break"): N_(
        "| Day | Plan |\n| --- | --- |\n| Saturday | Old town, museum, night market |\n"
        "| Sunday | Brunch, park, late train |"
    ),
    N_("Something with pasta"): N_(
        "1. Boil the pasta\n2. Fry garlic in olive oil, add chilli and lemon\n"
        "3. Toss with parmesan and parsley"
    ),
    N_("A quick curry"): N_(
        "1. Soften onion, garlic and ginger\n2. Add curry paste, chickpeas and coconut milk\n"
        "3. Simmer 15 minutes, finish with spinach"
    ),
    N_("A big salad"): N_(
        "1. Roast chickpeas with paprika\n2. Chop cucumber, tomato and herbs\n"
        "3. Dress with yoghurt, lemon and tahini"
    ),
}
_CODE_PLANS = {
    N_(
        "A command-line tool"
    ): "```python\nimport argparse\n\nparser = argparse.ArgumentParser(prog='todo')\nparser.add_argument('task')\nprint(f'Added: {parser.parse_args().task}')\n```",
    N_(
        "A small web app"
    ): "```python\nfrom nicegui import ui\n\nui.label('My weekend app')\nui.run()\n```",
    N_(
        "A tiny game"
    ): "```python\nimport random\n\nsecret = random.randint(1, 10)\nprint('Guess!' if int(input('1-10: ')) != secret else 'Yes!')\n```",
}
"""Code is code in every language: these plans are shown as written."""
_VALUES = (*_START.values(), *_AGAIN.values(), *_PLANS, *_CODE_PLANS)


def _understood(answer: str) -> str | None:
    """The message whose words, in any language the demo speaks, are `answer`: the value of an
    option it offered."""
    for locale in available_locales():
        words = translation(locale)
        for value in _VALUES:
            if words.gettext(value) == answer:
                return value
    return None


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
        """The whole reply to `history`, in the language of the conversation."""
        _ = spoken()
        if not history or history[-1]["role"] != "user":
            return _.gettext(_GREETING) + "\n\n" + _START.fence(_)
        answer = _understood(history[-1]["content"])
        if answer == _START_OVER:
            again = _.gettext("Happy to. Here we go again!")
            return f"{again}\n\n{_START.fence(_)}"
        if answer == _DONE:
            return _.gettext("You're welcome! Scroll up to see how each question was answered.")
        if answer in _FOLLOW_UPS:
            intro, question = _FOLLOW_UPS[answer]
            return _.gettext(intro) + "\n\n" + question.fence(_)
        if answer in _PLANS or answer in _CODE_PLANS:
            plan = _.gettext(_PLANS[answer]) if answer in _PLANS else _CODE_PLANS[answer]
            great = _.gettext(
                "Great choice: **{choice}**. Here's a plan:", choice=_.gettext(answer).lower()
            )
            return f"{great}\n\n{plan}\n\n{_AGAIN.fence(_)}"
        return self._not_understood(history[-1]["content"], history, _)

    def _not_understood(self, answer: str, history: Sequence[Message], _: Translation) -> str:
        """Typed text: say so, and ask the last question again (the old block is now outdated)."""
        fences = [
            segment.raw
            for message in history
            if message["role"] == "assistant"
            for segment in split_message(message["content"])
            if segment.kind == "choices"
        ]
        said = _.gettext(
            "You wrote “{answer}”. I'm only a demo, so I can't take free-form answers, but a real "
            "agent would. Here's my last question again:",
            answer=answer,
        )
        return f"{said}\n\n" + (fences[-1] if fences else _START.fence(_))
