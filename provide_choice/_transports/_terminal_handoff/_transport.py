"""`TerminalHandoffTransport`: the question waits on the bridge until the person answers it in a terminal the
agent opens (`choice-terminal`), and a later `provide_choice(session_id=...)` fetches the answer.

An MCP server started over stdio has no terminal of its own, but the agent usually has a "run in
terminal" tool. So the call does not wait: the question waits on the bridge and the call returns
`PendingLaunch` with the command to run; its routes (`_routes`) are what that command talks to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from provide_choice._bridge._bridge import Bridge, lazy_routes
from provide_choice._contract._outcomes import PendingLaunch
from provide_choice._question import PendingQuestion, QuestionRegistry
from provide_choice._transports._base import Caller
from provide_choice._transports._kinds import TERMINAL_HANDOFF
from provide_choice._transports._terminal_handoff._command import ROUTE_PREFIX, client_command

if TYPE_CHECKING:
    from provide_choice._transports._base import TransportSetup


class TerminalHandoffTransport:
    """Keeps the question on the bridge and returns at once with the command to answer it."""

    kind = TERMINAL_HANDOFF
    cancelled_with_the_call = False
    bounded_wait = True

    def __init__(self, bridge: Bridge, questions: QuestionRegistry) -> None:
        self.bridge = bridge
        self.questions = questions
        bridge.add_routes(
            lazy_routes("provide_choice._transports._terminal_handoff._routes", questions)
        )

    @classmethod
    def build(cls, setup: TransportSetup) -> TerminalHandoffTransport | None:
        """Only where the server has a bridge for the command to talk to."""
        return None if setup.bridge is None else cls(setup.bridge, setup.questions)

    def warm(self) -> None:
        """The bridge's parts, its routes among them (`Warms`)."""
        self.bridge.warm()

    async def show(self, question: PendingQuestion, caller: Caller) -> PendingLaunch:
        base_url = await self.bridge.hold(question)
        url = f"{base_url}{ROUTE_PREFIX}/{question.id}"
        question.show_at(url)
        return PendingLaunch(
            session_id=question.id, url=url, command=client_command(question.id, base_url)
        )
