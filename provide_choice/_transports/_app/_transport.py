"""`AppTransport`: the question drawn in the conversation by a host that renders MCP Apps.

The host draws the provide_choice view for the call (the tool names it in `_meta.ui.resourceUri`)
and hands it the call's arguments; the view finds the question from them and shows what the page
shows, answered through the app-only tool `provide_choice_app`. Nothing here waits or opens
anything: the call waits for the question as for any transport (bounded by `--max-wait`, then
`pending`, and the view stays answerable for the next poll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._app._questions import AppQuestions
from provide_choice._transports._base import Caller, Launch, ServerParts
from provide_choice._transports._kinds import APP_VIEW

if TYPE_CHECKING:
    from provide_choice._transports._base import TransportSetup


class AppTransport:
    """Opens the question for the app view; the view finishes it."""

    kind = APP_VIEW
    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, registry: QuestionRegistry) -> None:
        self.questions = AppQuestions(registry)

    @classmethod
    def build(cls, setup: TransportSetup) -> AppTransport:
        """Always: the view needs nothing set up on this server."""
        return cls(setup.questions)

    async def show(self, question: PendingQuestion, caller: Caller) -> Launch | None:
        self.questions.open(question)
        return None

    def server_parts(self) -> ServerParts:
        """The app's tool, its views as `ui://` resources and the `_meta` naming them."""
        # Deferred for start-up time: the views and the tool load the MCP SDK, which only the
        # MCP server needs (`provide-choice ask` and the inbox import this module too).
        from provide_choice._transports._app._server_parts import app_server_parts

        return app_server_parts(self.questions)
