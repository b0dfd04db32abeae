"""`AppTransport`: the question drawn in the conversation by a host that renders MCP Apps.

The host draws the provide_choice view for the call (the tool names it in `_meta.ui.resourceUri`)
and hands it the call's arguments; the view finds the question from them and shows what the page
shows, answered through the app-only tool `provide_choice_app`. Nothing here waits or opens
anything: the call waits for the question as for any transport (bounded by `--max-wait`, then
`pending`, and the view stays answerable for the next poll).
"""

from __future__ import annotations

from provide_choice._server._sessions import PendingQuestion, QuestionRegistry
from provide_choice._transports._app._questions import AppQuestions
from provide_choice._transports._base import Caller, Launch


class AppTransport:
    """Opens the question for the app view; the view finishes it."""

    cancelled_with_the_call = True
    bounded_wait = True

    def __init__(self, registry: QuestionRegistry) -> None:
        self.questions = AppQuestions(registry)

    async def show(self, question: PendingQuestion, caller: Caller) -> Launch | None:
        self.questions.open(question)
        return None
