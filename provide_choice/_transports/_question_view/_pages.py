"""The pages of the questions a surface shows (the page's, the app's), and what each message a
page sends does, whatever carries it (the page's HTTP and WebSocket, the provide_choice app's tool).

With a shared store, any instance serves any question's page: a page asked for by its id is opened
here from the store (`fetch`), with the drafts its other pages kept, and follows the question as
it changes anywhere. While the store is away, a message that needs it is refused with 503, saying
so: the page keeps what the person did, to send again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from present_choices import ChoicesError
from present_choices._translation import Translation
from provide_choice._contract._transport_table import TransportName
from provide_choice._history._inbox_link import InboxLink
from provide_choice._question import PendingQuestion, QuestionRegistry, StoreUnavailable
from provide_choice._transports._question_view._state import (
    INBOX_LINK,
    QuestionEnded,
    QuestionPage,
)

ENDED = "this question has already ended"
ANSWERED = "this question was already answered (maybe on another page of it): yours was not sent"
NOT_SENT = (
    "your answer was not sent: {problem}. It stays here; send it again once this message is gone"
)
HANDLERS: dict[str, Callable[[QuestionPage, object, Translation], Awaitable[None] | None]] = {
    "draft": lambda page, data, _translation: page.save_draft(data),
    "settings": lambda page, data, _translation: page.change_settings(data),
    "visibility": QuestionPage.hide_options,
    "answer": lambda page, data, _translation: page.answer(data),
}
"""What each message a question's view sends does, whatever carries it, and in which language it
refuses."""


async def apply(
    page: QuestionPage, kind: str, data: object, signal: Sequence[str]
) -> tuple[int, dict[str, Any]]:
    """Run one message against the page: the status (as HTTP says it) and the reply body, its
    state in the person's language (`signal`: the surface's). A change of settings and an answer
    are awaited: the question saves the one off the event loop, and the other is decided by the
    shared store, when there is one."""
    try:
        handled = HANDLERS[kind](page, data, page.translation(signal))
        if handled is not None:
            await handled
    except ChoicesError as error:
        return 422, {"problems": error.problems}
    except QuestionEnded:
        problem = ANSWERED if page.ending == "answered" else ENDED
        return 409, {"problems": [problem], "state": page.state(signal)}
    except StoreUnavailable as away:
        return 503, {"problems": [NOT_SENT.format(problem=away)], "state": page.state(signal)}
    return 200, {"state": page.state(signal)}


class QuestionPages:
    """The pages of the questions asked on one surface (`transport`). A page lives as long as its
    question is held by the registry, so an ended question still shows how it ended for a while,
    and memory stays as bounded as the registry's. `inbox` finds the inbox the pages link to
    (None: they link to none)."""

    def __init__(
        self,
        registry: QuestionRegistry,
        transport: TransportName,
        inbox: InboxLink | None = INBOX_LINK,
    ) -> None:
        self.registry = registry
        self.transport = transport
        self.inbox = inbox
        self._pages: dict[str, QuestionPage] = {}

    def open(self, question: PendingQuestion) -> QuestionPage:
        for question_id in [key for key in self._pages if self.registry.get(key) is None]:
            del self._pages[question_id]
        page = self._pages[question.id] = QuestionPage(question, self.inbox)
        return page

    def get(self, question_id: str) -> QuestionPage | None:
        """The page of a question held here."""
        page = self._pages.get(question_id)
        if page is not None and self.registry.get(question_id) is not page.question:
            del self._pages[question_id]
            return None
        return page

    async def fetch(self, question_id: str) -> QuestionPage | None:
        """The page of a question asked on this surface, here or on another instance; None for
        any other id. Raises `StoreUnavailable` while the shared store is away."""
        page = self.get(question_id)
        if page is not None:
            return page
        question = await self.registry.fetch(question_id)
        if question is None or question.transport != self.transport:
            return None
        return self.open(question)
