"""A person in Slack: a case's actions as presses, ticks, picks and typing in the question's
message, sent through the stand-in Slack (`slack_api`) to the app of the server asking.

A question is one message (buttons; radio buttons or checkboxes; a text field; Submit, Cancel);
a batch is one such message after another. Slack's client keeps what is ticked, picked and typed,
and sends it with Submit."""

from __future__ import annotations

from typing import Any

from conformance import (
    Action,
    Cancel,
    Case,
    Choose,
    In,
    LeaveTextEmpty,
    Submit,
    SubmitRefused,
    Toggle,
    Type,
    Wait,
)
from slack_api import Message, StandInSlack


class SlackPerson:
    """Plays a case in the channel; `seen` is how many messages the app had posted before."""

    def __init__(self, api: StandInSlack, case: Case, seen: int) -> None:
        self.api = api
        self.case = case
        self.person = api.person()
        self.seen = seen
        self.message: Message | None = None
        self.at: str | None = None
        """The batch's question on screen, by id."""

    async def play(self) -> None:
        ids = [item["id"] for item in self.case.questions]
        for action in self.case.actions:
            if isinstance(action, Wait):
                continue
            if isinstance(action, In):
                await self._go_to(ids, action.question_id)
                await self._act(action.action)
                continue
            await self._shown()
            await self._act(action)

    def _request(self, question_id: str | None) -> dict[str, Any]:
        return self.case.request if question_id is None else self.case.question(question_id)

    async def _go_to(self, ids: list[str], question_id: str) -> None:
        """Answer the questions before `question_id` as they stand (Submit)."""
        if self.at is None:
            self.at = ids[0]
            await self._shown()
        while self.at != question_id:
            assert ids.index(question_id) > ids.index(self.at), "Slack does not go back"
            if self.message is not None:  # a choice that sends moved on already
                await self._act(Submit())
            self.at = ids[ids.index(self.at) + 1]
            await self._shown()

    async def _shown(self) -> None:
        """Wait for the current question's message (and the app's connection)."""
        if self.message is not None:
            return
        api, seen = self.api, self.seen
        await api.until(lambda: len(api.channel_messages()) > seen, "posted the question")
        await api.connected()
        self.message = api.channel_messages()[seen]
        self.seen += 1

    async def _act(self, action: Action) -> None:
        message, person = self.message, self.person
        assert message is not None
        match action:
            case Choose(option_id):
                label = self.case.label(option_id)
                if label in message.buttons:  # a single choice that sends
                    person.presses(message, label)
                    self.message = None
                else:
                    person.picks(message, label)
            case Toggle(option_id):
                person.ticks(message, self.case.label(option_id))
            case Type(text):
                person.types(message, text)
            case LeaveTextEmpty():
                if any(element["type"] == "plain_text_input" for element in message.elements):
                    person.types(message, "")
            case Submit():
                person.presses(message, "Submit")
                self.message = None
            case SubmitRefused():
                told = len(self.api.ephemerals_for(person.user))
                person.presses(message, "Submit")
                assert await person.told(told + 1), "Submit was refused, saying why"
            case Cancel():
                person.presses(message, "Cancel")
