"""A server's questions, alerts and transports as `provide-choice serve` sets them up, without
MCP, for the Telegram plug-in's tests: questions asked in Telegram, or on another surface for
Telegram to follow."""

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
from provide_choice._transports._registry import build_transports, load_plugins

PAGE = "http://127.0.0.1:8123/choice/0123abcd"

load_plugins()  # as `provide-choice serve` does: the plug-in comes through its entry point


@dataclass
class Server:
    """What `provide-choice serve` sets up, without MCP: its questions, its alerts (a failed one
    noted in `failed`, as the history notes it) and its transports, Telegram's among them."""

    setup: TransportSetup
    transports: Transports
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def telegram(self) -> Any:
        return self.transports["telegram"]

    async def ask(
        self,
        request: dict[str, Any],
        transport: str = "telegram",
        seconds: float = 300,
        **settings: Any,
    ) -> PendingQuestion:
        """Ask `request` on `transport`: in Telegram, shown there; anywhere else, as its surface
        would show it (the page at an address), for Telegram to follow."""
        asked: Asked = parse_batch(request) if is_batch(request) else parse_request(request)
        interaction = Interaction(
            asked, InteractionSettings.model_validate(settings), time.monotonic() + seconds
        )
        question = self.setup.questions.create(interaction, transport)
        if transport == "telegram":
            await self.telegram.show(question, PlainCaller())
        elif transport == "web":
            question.show_at(PAGE)
        question.mark_shown()
        return question


def start_server() -> Server:
    """The transports built as a server builds them, Telegram's from its environment."""
    failed: list[tuple[str, str]] = []
    alerts = QuestionAlerts(failed=lambda q, problem: failed.append((q.id, problem)), environ={})
    setup = TransportSetup(QuestionRegistry(recorder=Recorders(alerts)), alerts=alerts)
    transports = build_transports(setup)
    assert "telegram" in transports, "the plug-in is installed (pip install -e .) and set up"
    return Server(setup, transports, failed)
