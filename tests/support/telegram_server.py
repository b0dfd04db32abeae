"""A server's questions, alerts and transports as `provide-choice serve` sets them up, without
MCP, for the chat plug-ins' tests (Telegram, Slack): questions asked in the chat, or on another
surface for the chat to follow."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from callers import PlainCaller

from provide_choice import InteractionSettings, QuestionRegistry
from provide_choice._alerts import QuestionAlerts
from provide_choice._contract._batch import Asked, is_batch, parse_batch
from provide_choice._contract._request import parse_request
from provide_choice._question import Interaction, PendingQuestion, Recorders
from provide_choice._transports._base import Transports, TransportSetup
from provide_choice._transports._plug_ins import load_plugins
from provide_choice._transports._registry import build_transports

PAGE = "http://127.0.0.1:8123/choice/0123abcd"
CHATS = ("telegram", "slack")
"""The plug-ins that ask in a chat: a question asked on one is shown there."""

load_plugins()  # as `provide-choice serve` does: the plug-in comes through its entry point


@dataclass
class Server:
    """What `provide-choice serve` sets up, without MCP: its questions, its alerts (a failed one
    noted in `failed`, as the history notes it) and its transports, the chat's among them."""

    setup: TransportSetup
    transports: Transports
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def telegram(self) -> Any:
        return self.transports["telegram"]

    @property
    def slack(self) -> Any:
        return self.transports["slack"]

    async def ask(
        self,
        request: dict[str, Any],
        transport: str = "telegram",
        seconds: float = 300,
        **settings: Any,
    ) -> PendingQuestion:
        """Ask `request` on `transport`: in a chat, shown there; anywhere else, as its surface
        would show it (the page at an address), for the chats to follow."""
        asked: Asked = parse_batch(request) if is_batch(request) else parse_request(request)
        interaction = Interaction(
            asked, InteractionSettings.model_validate(settings), time.monotonic() + seconds
        )
        question = self.setup.questions.create(interaction, transport)
        if transport in CHATS:
            await self.transports[transport].show(question, PlainCaller())
        elif transport == "web":
            question.show_at(PAGE)
        question.mark_shown()
        return question


def start_server(chat: str = "telegram") -> Server:
    """The transports built as a server builds them, the `chat` plug-in's from its environment."""
    failed: list[tuple[str, str]] = []
    alerts = QuestionAlerts(failed=lambda q, problem: failed.append((q.id, problem)), environ={})
    setup = TransportSetup(QuestionRegistry(recorder=Recorders(alerts)), alerts=alerts)
    transports = build_transports(setup)
    assert chat in transports, "the plug-in is installed (pip install -e .) and set up"
    return Server(setup, transports, failed)
