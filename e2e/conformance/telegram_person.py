"""A person in Telegram: a case's actions as presses of the question's buttons and replies to its
messages, sent through the stand-in Bot API (`telegram_api`) to the bot of the server asking.

A question is a message with buttons (and, when it takes text, a second one asking for a reply);
a batch is one such message after another. What the person types is the text of a reply, sent
when they submit; Done sends with nothing typed."""

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
from telegram_api import Message, StandInBotApi

REPLY_PROMPT = "Reply to this message with your answer"


class TelegramPerson:
    """Plays a case in the linked chat; `seen` is how many messages the bot had sent before."""

    def __init__(self, api: StandInBotApi, case: Case, seen: int) -> None:
        self.api = api
        self.case = case
        self.person = api.person()
        self.seen = seen
        self.card: Message | None = None
        self.prompt: Message | None = None
        self.typed: str | None = None
        self.at: str | None = None
        """The batch's question on screen, by id."""

    async def play(self) -> None:
        ids = [item["id"] for item in self.case.questions]
        for action in self.case.actions:
            if isinstance(action, Wait):
                continue
            if isinstance(action, In):
                await self._go_to(ids, action.question_id)
                await self._act(action.action, self._request(action.question_id), last=False)
                continue
            await self._shown()
            await self._act(action, self._request(self.at), last=action == self.case.actions[-1])

    def _request(self, question_id: str | None) -> dict[str, Any]:
        return self.case.request if question_id is None else self.case.question(question_id)

    async def _go_to(self, ids: list[str], question_id: str) -> None:
        """Answer the questions before `question_id` as they stand (Done, or the reply typed)."""
        if self.at is None:
            self.at = ids[0]
            await self._shown()
        while self.at != question_id:
            assert ids.index(question_id) > ids.index(self.at), "Telegram does not go back"
            if self.card is not None:  # a choice that sends moved on already
                await self._submit()
            self.at = ids[ids.index(self.at) + 1]
            await self._shown()

    async def _shown(self) -> None:
        """Wait for the current question's message (and its reply prompt)."""
        if self.card is not None:
            return
        request = self._request(self.at)
        count = 2 if request["selection_mode"] in ("text_input", "hybrid") else 1
        api, seen = self.api, self.seen
        await api.until(lambda: len(api.bot_messages()) >= seen + count, "sent the question")
        self.card, *rest = api.bot_messages()[seen : seen + count]
        self.prompt = rest[0] if rest else None
        if self.prompt is not None:
            assert self.prompt.plain == REPLY_PROMPT
        self.seen += count
        self.typed = None

    async def _act(self, action: Action, request: dict[str, Any], *, last: bool) -> None:
        assert self.card is not None
        match action:
            case Choose(option_id) | Toggle(option_id):
                label = self.case.label(option_id)
                toast = await self.person.toast(self.person.presses(self.card, label))
                sends = request["selection_mode"] == "single" and request.get(
                    "single_submit_mode", True
                )
                if sends:
                    assert toast == "Sent", toast
                    self.card = None
            case Type(text):
                self.typed = text
            case LeaveTextEmpty():
                self.typed = None
            case Submit():
                await self._submit()
            case SubmitRefused():
                if "Done" in self.card.button_texts:
                    toast = await self.person.toast(self.person.presses(self.card, "Done"))
                    assert toast not in ("", "Sent"), "Done was refused, saying why"
                else:  # only a reply answers: the message says so, and nothing sends it empty
                    assert "Reply to the message below with your answer." in self.card.plain
            case Cancel():
                await self.person.toast(self.person.presses(self.card, "Cancel"))

    async def _submit(self) -> None:
        assert self.card is not None
        if self.typed is not None:
            assert self.prompt is not None, "a question that takes text has its reply prompt"
            self.person.replies(self.prompt, self.typed)
        else:
            assert await self.person.toast(self.person.presses(self.card, "Done")) == "Sent"
        self.card = None
