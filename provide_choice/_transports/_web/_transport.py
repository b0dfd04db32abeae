"""`WebTransport`: the question as a page on the bridge, answered in the person's browser.

It is the transport for a server without a terminal (the usual case for an MCP server a desktop
client starts over stdio) and for requests that ask for `transport="web"`. The page is plain Starlette
on the shared bridge, not a NiceGUI app: it is usable in the browser sooner, and a bridge that stops
between questions leaves nothing behind.

Where the client declared URL-mode elicitation, the client is asked to open the page (it reaches
the person's browser even where this server cannot start one), and told when the question ended;
else the server opens the browser itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Mapping
from typing import TYPE_CHECKING, Any

from provide_choice._bridge._bridge import Bridge, lazy_routes
from provide_choice._bridge._local_http import open_in_browser
from provide_choice._contract._outcomes import Cancelled
from provide_choice._notices import PREFIX, say
from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._base import Caller, InputNeeded
from provide_choice._transports._kinds import WEB
from provide_choice._transports._question_view._pages import QuestionPages
from provide_choice._transports._question_view._state import INBOX_LINK

if TYPE_CHECKING:
    from mcp_types import ElicitRequest, ElicitRequestURLParams, ElicitResult

    from provide_choice._transports._base import TransportSetup


class WebTransport:
    """Shows the question at `/choice/<id>` on the bridge and opens it in the browser; the page
    finishes it. Any number of questions may wait at once."""

    kind = WEB
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(
        self, bridge: Bridge, registry: QuestionRegistry, *, open_browser: bool = True
    ) -> None:
        self.bridge = bridge
        # The inbox runs on this machine: a page seen from elsewhere cannot follow a link to it.
        self.pages = QuestionPages(registry, "web", INBOX_LINK if bridge.local else None)
        self.open_browser = open_browser
        self._background: set[asyncio.Task[None]] = set()
        bridge.add_routes(lazy_routes("provide_choice._transports._web._routes", self.pages))

    @classmethod
    def build(cls, setup: TransportSetup) -> WebTransport | None:
        """Only where the server has a bridge to serve the page."""
        if setup.bridge is None:
            return None
        return cls(setup.bridge, setup.questions, open_browser=setup.open_browser)

    def warm(self) -> None:
        """The bridge's parts, and the page's own: the markdown parser its prompt is rendered
        with, its one script and its words in every language, joined once (`Warms`)."""
        self.bridge.warm()
        from present_choices._markdown import markdown_parser
        from provide_choice._transports._web._page import page_script, page_words

        markdown_parser()  # the prompt is rendered with it
        page_script()
        page_words()

    async def show(self, question: PendingQuestion, caller: Caller) -> InputNeeded | None:
        base_url = await self.bridge.hold(question)
        self.pages.open(question)
        url = f"{base_url}/choice/{question.id}"
        question.show_at(url)
        # Tell the person too: the agent hears it in progress notifications and in the result.
        say(f"{PREFIX}question waiting at {url}")
        if not caller.features.url:
            if self.open_browser:
                open_in_browser(url)
            return None
        from mcp_types import ElicitRequest  # the SDK loads only when a client opens pages

        request = ElicitRequest(params=_open_page(question, url))
        if caller.input_required:
            return InputNeeded({OPEN_PAGE_KEY: request})
        self._tell_when_ended(question, caller)
        self._spawn(self._ask_to_open(question, caller, request))
        return None

    async def resume(
        self,
        question: PendingQuestion,
        caller: Caller,
        responses: Mapping[str, object],
        state: Mapping[str, Any],
    ) -> None:
        """The client answered the request to open the page: the question waits on the page,
        unless the person declined to open it."""
        self._tell_when_ended(question, caller)
        result = responses.get(OPEN_PAGE_KEY)
        # Deferred for start-up time: loaded only when this runs.
        from mcp_types import ElicitResult

        if isinstance(result, ElicitResult):
            _follow_consent(question, result)

    async def _ask_to_open(
        self, question: PendingQuestion, caller: Caller, request: ElicitRequest
    ) -> None:
        try:
            result = await caller.elicit(request.params)
        except Exception:  # the client could not show its offer: open the browser from here
            if self.open_browser and question.url is not None:
                open_in_browser(question.url)
            return
        _follow_consent(question, result)

    def _tell_when_ended(self, question: PendingQuestion, caller: Caller) -> None:
        def ended(_question: PendingQuestion) -> None:
            self._spawn(_complete(caller, question.id))

        question.on_finish(ended)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


OPEN_PAGE_KEY = "open_page"
"""The key of the request to open the page among a round's input requests (2026-07-28)."""
DECLINED_PAGE = "The person declined to open the question's page in the MCP client"
DISMISSED_PAGE = "The person dismissed the MCP client's offer to open the question's page"


def _open_page(question: PendingQuestion, url: str) -> ElicitRequestURLParams:
    """The URL-mode request: the page's address, the question's id as the elicitation's id."""
    title = question.interaction.asked.title
    # Deferred for start-up time: loaded only when this runs.
    from mcp_types import ElicitRequestURLParams

    return ElicitRequestURLParams(
        mode="url",
        message=f"{title}: answer this question in your browser.",
        url=url,
        elicitation_id=question.id,
    )


def _follow_consent(question: PendingQuestion, result: ElicitResult) -> None:
    """Accepting the offer opens the page; declining or dismissing it cancels the question."""
    if result.action == "decline":
        question.finish(Cancelled(detail=DECLINED_PAGE))
    elif result.action == "cancel":
        question.finish(Cancelled(detail=DISMISSED_PAGE))


async def _complete(caller: Caller, elicitation_id: str) -> None:
    """`notifications/elicitation/complete`; a client that went away cannot hear it."""
    with contextlib.suppress(Exception):
        await caller.elicitation_complete(elicitation_id)
