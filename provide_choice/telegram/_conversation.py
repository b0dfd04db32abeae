"""One question in the linked chat, from its first message to the edit that says how it ended.

A question is one message with its buttons (and, when it takes text, a second one asking for a
reply); a batch is one such message per question, one after another, each answered in turn. What
the person does is reported as every surface reports it, a `Submission`, and the contract says
what it means (`answer_from`) or why it is refused (`count_refusal`, in the button's answer); an
answer ends the question as any surface's does (`settle`, naming `telegram` as `via`), the first
answer anywhere winning. However it ends (here, elsewhere, the deadline, the agent), the message
is edited to say so and loses its buttons.

Telegram away never blocks: a message that cannot be sent is tried again with growing pauses
until it is, or the question ends (the question waits on every other surface meanwhile, and
its history notes that Telegram could not show it); an ending's edit is tried again for a while.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from present_choices import ChoicesError
from provide_choice.telegram._api import Refused, Unreachable
from provide_choice.telegram._chat import FAILURES, Chat
from provide_choice.telegram._ending import ending_line
from provide_choice.telegram._html import escaped
from provide_choice.telegram._message import (
    CANCEL_DATA,
    CHOOSE,
    REPLY_PROMPT,
    SUBMIT,
    TOGGLE,
    Heading,
    ended_text,
    question_card,
    radio,
    reply_markup,
)
from provide_choice.telegram._submissions import done, typed
from provide_choice.transports import (
    Answered,
    BatchAnswered,
    Cancelled,
    ChatConversation,
    Ending,
    PendingQuestion,
    ProvideChoiceRequest,
    StoreUnavailable,
    Submission,
    answer_from,
    answer_words,
    steps_of,
    submits_on_selection,
    takes_text,
)

ENDED = "This question has ended"
ANSWERED_ALREADY = "Already answered: the next question is below"
SENT = "Sent"
ENDING_RETRY_SECONDS = 60.0
"""How long the edit that says how a question ended is tried again while Telegram is away."""


@dataclass(frozen=True)
class Item:
    """One question as the chat shows it: a single question, or one of a batch (`id`)."""

    id: str | None
    heading: Heading
    request: ProvideChoiceRequest


def items_of(question: PendingQuestion) -> list[Item]:
    return [
        Item(step.id, Heading(step.title, step.header, step.place), step.request)
        for step in steps_of(question.interaction.asked)
    ]


class Conversation(ChatConversation):
    """`question` in the chat. `known(message_id, self)` is told of each message it sends, so that
    a press or a reply on it finds it; `name` is the transport's (the ending's `via`)."""

    def __init__(
        self,
        question: PendingQuestion,
        chat: Chat,
        name: str,
        known: Callable[[int, Conversation], None],
    ) -> None:
        super().__init__(question, chat.alerts, "telegram", FAILURES)
        self.chat = chat
        self.name = name
        self.known = known
        self.items = items_of(question)
        self.index = 0
        self.chosen = list(self.item.request.default_selection_ids)
        self.answers: dict[str, Answered] = {}
        self.card: int | None = None
        """The current question's message, once sent."""
        self.reply: int | None = None
        """The message asking for a typed answer, once sent (questions that take text)."""

    @property
    def item(self) -> Item:
        return self.items[self.index]

    # What the person does ---------------------------------------------------------------------

    async def pressed(self, message_id: int, data: str) -> str:
        """A button of message `message_id` was pressed: what it says back (its toast)."""
        if self.question.outcome is not None:
            return ENDED
        async with self._lock:
            if self.question.outcome is not None:
                return ENDED
            if message_id != self.card:
                return ANSWERED_ALREADY
            request = self.item.request
            action, _, number = data[:1], None, data[1:]
            if action == CANCEL_DATA:
                return await self._settle(Cancelled(via=self.name))
            if action == SUBMIT:
                reported = done(request, self.question.settings, self.chosen)
                return reported if isinstance(reported, str) else await self._answer(reported)
            options = request.options or ()
            if action not in (CHOOSE, TOGGLE) or not number.isdigit():
                return ENDED  # not a button of ours now: an old client's, or a forged one
            if int(number) >= len(options):
                return ENDED
            option = options[int(number)].id
            if action == CHOOSE and submits_on_selection(request, self.question.settings):
                return await self._answer(Submission(selected_ids=[option]))
            self._choose(request, option, toggle=action == TOGGLE)
            self.question.touch()
            await self._redraw()
            return ""

    async def replied(self, message_id: int, text: str) -> str | None:
        """The person replied `text` to message `message_id`: what the bot replies (a refusal),
        or None when the answer went through."""
        if self.question.outcome is not None:
            return ENDED
        async with self._lock:
            if self.question.outcome is not None:
                return ENDED
            if message_id not in (self.card, self.reply):
                return ANSWERED_ALREADY
            reported = typed(self.item.request, self.question.settings, self.chosen, text)
            if isinstance(reported, str):
                return reported
            toast = await self._answer(reported)
            return None if toast == SENT else toast

    def _choose(self, request: ProvideChoiceRequest, option: str, *, toggle: bool) -> None:
        if option in self.chosen and (toggle or request.limits.minimum == 0):
            self.chosen.remove(option)
        elif option not in self.chosen:
            self.chosen = [option] if radio(request) else [*self.chosen, option]

    async def _answer(self, submission: Submission) -> str:
        """What the submission means for the current question: the next question of a batch,
        or the end of the whole."""
        request, settings = self.item.request, self.question.settings
        try:
            answer = answer_from(submission, request, settings)
        except ChoicesError as refused:
            return "; ".join(refused.problems)
        item = self.item
        if item.id is None:
            return await self._settle(answer.model_copy(update={"via": self.name}))
        self.answers[item.id] = answer
        if len(self.answers) < len(self.items):
            self.question.keep(item.id, answer)
            await self._next(answer)
            return SENT
        return await self._settle(BatchAnswered(answers=dict(self.answers), via=self.name))

    async def _settle(self, outcome: Ending) -> str:
        try:
            won = await self.question.settle(outcome)
        except StoreUnavailable as away:
            return f"Not sent: {away}; try again"
        return SENT if won else ENDED

    # Messages ---------------------------------------------------------------------------------

    async def _send_current(self) -> None:
        async with self._lock:
            if self.question.outcome is not None:
                return
            item, settings = self.item, self.question.settings
            if self.card is None:
                card = question_card(
                    item.heading, item.request, settings, self.chosen, self.question.seconds_left()
                )
                self.card = await self.chat.send(card.text, card.keyboard)
                self.known(self.card, self)
            if takes_text(item.request) and self.reply is None:
                markup = reply_markup(item.request, settings)
                self.reply = await self.chat.send(escaped(REPLY_PROMPT), markup)
                self.known(self.reply, self)

    async def _redraw(self) -> None:
        """Show what is chosen now: the buttons change, the text stays as sent."""
        if self.card is None:
            return
        item = self.item
        card = question_card(
            item.heading,
            item.request,
            self.question.settings,
            self.chosen,
            self.question.seconds_left(),
        )
        with suppress(Unreachable, Refused):  # what is chosen is kept; the next press redraws
            await self.chat.edit_buttons(self.card, card.keyboard)

    async def _next(self, answer: Answered) -> None:
        """A question of a batch was answered: its message says so, and the next one is sent."""
        item, card, reply = self.item, self.card, self.reply
        line = f"✔ Answered: {escaped(answer_words(item.request, answer))}"
        self.index += 1
        self.chosen = list(self.item.request.default_selection_ids)
        self.card = self.reply = None
        self._spawn(self._edit_ended(item, card, reply, line))
        self._spawn(self._deliver())

    def _ending(self) -> Coroutine[Any, Any, None]:
        """The current messages say how the question ended, without buttons."""
        return self._edit_ended(self.item, self.card, self.reply, ending_line(self.question))

    async def _edit_ended(self, item: Item, card: int | None, reply: int | None, line: str) -> None:
        """Edit `card` (and `reply`) to end with `line`, trying again while Telegram is away."""
        edits = []
        if card is not None:
            settings = self.question.settings
            edits.append((card, ended_text(item.heading, item.request, settings, line)))
        if reply is not None:
            edits.append((reply, escaped(ENDED if self.question.outcome else "Answered.")))
        await self.chat.edit_at_last(edits, ENDING_RETRY_SECONDS)
