"""One question in the channel, from its first message to the edit that says how it ended.

A question is one message (`_blocks`); a batch is one message per question, one after another,
each answered in turn. What the person does arrives as a `block_actions` payload: an option's
button sends that option; Submit sends what Slack's client holds for the message
(`state.values`: the boxes ticked, the option picked, the text typed), reported as every surface
reports it (`chat_submission`, a `Submission`) and meant as the contract says (`answer_from`);
a refusal (a count outside the limits) goes back in an ephemeral message, seen by the one who
pressed alone. An answer ends the question as any surface's does (`settle`, naming `slack` as
`via` and who answered as `person`), the first answer anywhere winning. However it ends (here,
elsewhere, the deadline, the agent), the message is updated to say so and loses its elements.

Slack away never blocks: a message that cannot be posted is tried again with growing pauses
until it is, or the question ends (the question waits on every other surface meanwhile, and its
history notes that Slack could not show it); an ending's update is tried again for a while.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from present_choices import ChoicesError
from provide_choice.slack._blocks import (
    CANCEL_ACTION,
    CHOICES_BLOCK,
    CHOOSE,
    PICK,
    SUBMIT_ACTION,
    TEXT,
    TEXT_BLOCK,
    TICK,
    ended_blocks,
    notification_text,
    question_blocks,
)
from provide_choice.slack._channel import FAILURES, Channel
from provide_choice.slack._mrkdwn import escaped
from provide_choice.transports import (
    Answered,
    BatchAnswered,
    Cancelled,
    ChatConversation,
    Ending,
    PendingQuestion,
    StoreUnavailable,
    Submission,
    answer_from,
    answer_words,
    chat_submission,
    ending_words,
    steps_of,
    submits_on_selection,
)

ENDED = "This question has ended"
ANSWERED_ALREADY = "Already answered: the next question is below"
TEXT_NEEDED = "Type your answer in the box first"
NO_TEXT = "This question takes no typed answer: use its buttons"
ENDING_RETRY_SECONDS = 60.0
"""How long the update that says how a question ended is tried again while Slack is away."""

Payload = dict[str, Any]


def who(payload: Payload) -> tuple[str, str]:
    """Who acted in a payload: their user id, and how the history names them ("ada (U0ADA)")."""
    user = payload.get("user") or {}
    user_id = str(user.get("id") or "")
    name = str(user.get("username") or user.get("name") or "").strip()
    return user_id, f"{name} ({user_id})" if name else user_id


class Conversation(ChatConversation):
    """`question` in the channel. `known(ts, self)` is told of each message it posts, so that an
    action on it finds it; `name` is the transport's (the ending's `via`)."""

    def __init__(
        self,
        question: PendingQuestion,
        channel: Channel,
        name: str,
        known: Callable[[str, Conversation], None],
    ) -> None:
        super().__init__(question, channel.alerts, "slack", FAILURES)
        self.channel = channel
        self.name = name
        self.known = known
        self.steps = steps_of(question.interaction.asked)
        self.index = 0
        self.answers: dict[str, Answered] = {}
        self.message: str | None = None
        """The current question's message (its `ts`), once posted."""

    # What the person does ---------------------------------------------------------------------

    async def acted(self, ts: str, payload: Payload) -> str | None:
        """Someone acted on message `ts`: what they are told (ephemerally), or None."""
        if self.question.outcome is not None:
            return ENDED
        async with self._lock:
            if self.question.outcome is not None:
                return ENDED
            if ts != self.message:
                return ANSWERED_ALREADY
            actions = payload.get("actions") or [{}]
            action = str(actions[0].get("action_id") or "")
            _user, person = who(payload)
            step = self.steps[self.index]
            if action == CANCEL_ACTION:
                return await self._settle(Cancelled(via=self.name, person=person))
            if action == SUBMIT_ACTION:
                chosen, typed = _state(payload)
                reported = chat_submission(
                    step.request,
                    self.question.settings,
                    chosen_ids(step.request.options or (), chosen),
                    typed,
                    text_needed=TEXT_NEEDED,
                    no_text=NO_TEXT,
                )
                if isinstance(reported, str):
                    return reported
                return await self._answer(reported, person)
            options = step.request.options or ()
            number = action.removeprefix(CHOOSE)
            sends = submits_on_selection(step.request, self.question.settings)
            if action.startswith(CHOOSE) and number.isdigit() and int(number) < len(options):
                if sends:
                    selected = [options[int(number)].id]
                    return await self._answer(Submission(selected_ids=selected), person)
                return ENDED  # not an element of this message now: an old one, or forged
            if action in (TICK, PICK, TEXT):
                self.question.touch()  # Slack's client keeps the choice; Submit sends it
                return None
            return ENDED

    async def _answer(self, submission: Submission, person: str) -> str | None:
        """What the submission means for the current question: the next question of a batch,
        or the end of the whole."""
        step = self.steps[self.index]
        try:
            answer = answer_from(submission, step.request, self.question.settings)
        except ChoicesError as refused:
            return "; ".join(refused.problems)
        if step.id is None:
            return await self._settle(
                answer.model_copy(update={"via": self.name, "person": person})
            )
        self.answers[step.id] = answer
        if len(self.answers) < len(self.steps):
            self.question.keep(step.id, answer)
            await self._next(answer)
            return None
        batch = BatchAnswered(answers=dict(self.answers), via=self.name, person=person)
        return await self._settle(batch)

    async def _settle(self, outcome: Ending) -> str | None:
        try:
            won = await self.question.settle(outcome)
        except StoreUnavailable as away:
            return f"Not sent: {away}; try again"
        return None if won else ENDED

    # Messages ---------------------------------------------------------------------------------

    async def _send_current(self) -> None:
        async with self._lock:
            if self.question.outcome is not None or self.message is not None:
                return
            step = self.steps[self.index]
            blocks = question_blocks(step, self.question.settings, self.question.seconds_left())
            self.message = await self.channel.post(notification_text(step), blocks)
            self.known(self.message, self)

    async def _next(self, answer: Answered) -> None:
        """A question of a batch was answered: its message says so, and the next one is posted."""
        step, message = self.steps[self.index], self.message
        self.index += 1
        self.message = None
        self._spawn(
            self._update_ended(
                step.id, message, f"✔ Answered: {answer_words(step.request, answer)}"
            )
        )
        self._spawn(self._deliver())

    def _ending(self) -> Coroutine[Any, Any, None]:
        """The current message says how the question ended, without elements."""
        return self._update_ended(
            self.steps[self.index].id, self.message, ending_words(self.question)
        )

    async def _update_ended(self, step_id: str | None, message: str | None, line: str) -> None:
        if message is None:
            return
        (step,) = [step for step in self.steps if step.id == step_id]
        blocks = ended_blocks(step, line)
        await self.channel.update_at_last(message, escaped(line), blocks, ENDING_RETRY_SECONDS)


def _state(payload: Payload) -> tuple[list[str], str | None]:
    """What Slack's client held for the message when it was acted on: the values of the options
    ticked or picked ("o1"), and the text typed (None: nothing)."""
    values = (payload.get("state") or {}).get("values") or {}
    choices = values.get(CHOICES_BLOCK) or {}
    ticked = (choices.get(TICK) or {}).get("selected_options") or []
    picked = (choices.get(PICK) or {}).get("selected_option")
    chosen = [str(option.get("value")) for option in [*ticked, *([picked] if picked else [])]]
    typed = ((values.get(TEXT_BLOCK) or {}).get(TEXT) or {}).get("value")
    return chosen, typed if isinstance(typed, str) else None


def chosen_ids(options: Any, values: list[str]) -> list[str]:
    """The option ids that the elements' values ("o1") name; a value naming none is dropped."""
    ids = []
    for value in values:
        number = value.removeprefix(CHOOSE)
        if value.startswith(CHOOSE) and number.isdigit() and int(number) < len(options):
            ids.append(options[int(number)].id)
    return ids
