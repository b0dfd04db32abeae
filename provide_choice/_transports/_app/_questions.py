"""The questions asked in the conversation's app view, and how a view finds the one it was drawn for.

A host draws the provide_choice view for a call and hands it the call's arguments (its tool input),
but nothing that names the question: a host may put the call's id in its context (`toolInfo`) or
not, and on the 2026-07-28 revision every request stands alone (no connection ties the view's calls
to the call that asked). So the view names the question by what was asked: a poll by its session,
a question by its request, parsed as the call parsed it. Of the open questions asked the same way,
the newest one no view has claimed yet is the one (a view drawn again finds its own again).

A view may ask before the call has opened its question (the host sends the input and makes the call
at the same time), so finding waits a little; a question the server put elsewhere (the person
prefers the browser, say) is reported as such, with where.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from contextlib import suppress
from typing import Any

from present_choices._translation import N_, Translation
from provide_choice._contract._batch import Asked
from provide_choice._contract._call import SessionPoll, parse_call
from provide_choice._contract._transport_table import in_a_sentence, kind_of
from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._kinds import APP_VIEW
from provide_choice._transports._question_view._pages import QuestionPages
from provide_choice._transports._question_view._state import QuestionPage

APP = APP_VIEW.name
"""The transport's name."""
FIND_SECONDS = 10.0
"""How long a view waits for the call it was drawn for to open its question."""
FIND_EVERY_SECONDS = 0.1


class NotHere(Exception):
    """The view's question is not one it can show: why, as a message of the catalog, said in the
    person's language (`said`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def said(self, translation: Translation) -> str:
        return translation.gettext(self.message)


class AskedElsewhere(NotHere):
    """The question the view was drawn for is asked on another surface: its transport's label,
    and its address when it has one."""

    def __init__(self, label: str, url: str | None) -> None:
        super().__init__(ELSEWHERE_AT if url else ELSEWHERE)
        self.label = label
        self.url = url

    def said(self, translation: Translation) -> str:
        where = in_a_sentence(translation.gettext(self.label))
        return translation.gettext(self.message, where=where, url=self.url)


class AppQuestions:
    """The questions shown in app views, each as a `QuestionPage` (the page's state, drafts,
    settings and answers: the view is the page, carried differently)."""

    def __init__(self, registry: QuestionRegistry) -> None:
        self.registry = registry
        self.pages = QuestionPages(registry, APP)
        self._claimed: set[str] = set()
        self._opened = asyncio.Event()

    def open(self, question: PendingQuestion) -> None:
        self.pages.open(question)
        self._claimed = {claimed for claimed in self._claimed if self.registry.get(claimed)}
        self._opened.set()  # a view waiting for it finds it at once
        self._opened = asyncio.Event()

    async def fetch(self, question_id: str) -> QuestionPage | None:
        return await self.pages.fetch(question_id)

    async def find(self, arguments: Mapping[str, Any]) -> QuestionPage:
        """The page of the question asked with these arguments. Raises `ChoicesError` when they
        ask nothing (the call itself says so too), `AskedElsewhere` when the server asks it on
        another surface, `NotHere` when no call asked it within `FIND_SECONDS`,
        `StoreUnavailable` while a shared store is away."""
        wanted = parse_call(arguments)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FIND_SECONDS
        while True:
            opened = self._opened
            question = await self._asked(wanted)
            if question is None and isinstance(wanted, SessionPoll):
                raise NotHere(NO_SESSION)  # a poll comes after its question, never before
            page = None if question is None else await self.pages.fetch(question.id)
            if page is not None:
                self._claimed.add(page.question.id)
                return page
            if question is not None and question.transport != APP:
                raise _elsewhere(question)
            if loop.time() >= deadline:
                raise NotHere(NOT_ASKED)
            # Woken when a question opens here; a look now and then finds one asked elsewhere.
            with suppress(TimeoutError):
                async with asyncio.timeout(FIND_EVERY_SECONDS):
                    await opened.wait()

    async def _asked(self, wanted: Asked | SessionPoll) -> PendingQuestion | None:
        """The question `wanted` names: by its session, or the newest open one asked the same
        way, one no view claimed first, then the rest (a view drawn again); on any instance of a
        shared store."""
        if isinstance(wanted, SessionPoll):
            return await self.registry.fetch(wanted.session_id)
        same = await self.registry.asked_as(wanted)
        unclaimed = [question for question in same if question.id not in self._claimed]
        return next(iter(unclaimed or same), None)


NO_SESSION = N_(
    "This session is not open on this server: its answer was fetched already, or it ended long "
    "ago (the call's result says how)."
)
NOT_ASKED = N_(
    "No question asked with these arguments is open on this server: it may have ended already, "
    "or the call was refused (its result says why)."
)
ELSEWHERE = N_("This question is asked elsewhere: {where}.")
ELSEWHERE_AT = N_("This question is asked elsewhere: {where}, at {url}.")


def _elsewhere(question: PendingQuestion) -> AskedElsewhere:
    """Where a question is asked, for the view to say."""
    return AskedElsewhere(kind_of(question.transport).label, question.url)
