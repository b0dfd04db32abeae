"""Once the client knows the tools, the surfaces load what their first question needs, so the person
does not wait for it.

The server starts with what answering `tools/list` needs, and each transport loads its surface (the
page's HTTP server and parts, the terminal's UI) when it first asks: a server the agent never asks
anything pays for none of it. Left at that, the person's first question would wait for those loads
(a page's first render took twice a warm one). So once the server has answered its first
`tools/list` (and its answer has had a moment to go out), a worker thread builds this package's
pydantic models (built on first use, as every model of the server is: `_commands._model_builds`)
and loads the surfaces of every transport that `Warms`, while the agent's model writes its first
call: that takes seconds, the loads a fraction of one. A question that comes sooner meets them half
done and waits for the rest, as it would have without.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from pydantic import BaseModel

from provide_choice._transports._base import Warms

log = logging.getLogger("provide_choice.warming")

OWN_PACKAGES = ("provide_choice.", "present_choices.")
WARM_AFTER_SECONDS = 0.05
"""How long the warming waits once `tools/list` is answered: the answer is still to be written when
the middleware returns, and a warming thread started at once would take its share of the
interpreter from that (the client waited about 20 ms for its list instead of about 11)."""


class WarmAfterToolsList(ServerMiddleware[Any]):
    """Server middleware: after the first `tools/list` answered, warm every transport, once."""

    def __init__(self, transports: Iterable[object]) -> None:
        self._warming = [transport for transport in transports if isinstance(transport, Warms)]
        self._started = False

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == "tools/list" and not self._started:
            self._started = True
            warming = threading.Timer(WARM_AFTER_SECONDS, self._warm)
            warming.name, warming.daemon = "provide-choice-warming", True
            warming.start()
        return result

    def _warm(self) -> None:
        build_own_models()
        for transport in self._warming:
            try:
                transport.warm()
            except Exception as error:  # the first question then loads it, and meets the problem
                log.debug("warming %s failed: %r", type(transport).__name__, error)


def build_own_models() -> None:
    """Build this package's pydantic models that wait for their first use
    (`_commands._model_builds`): the call's request, response and outcomes, the settings."""
    waiting = [BaseModel]
    while waiting:
        model = waiting.pop()
        waiting += model.__subclasses__()
        if model.__module__.startswith(OWN_PACKAGES) and not model.__pydantic_complete__:
            model.model_rebuild(raise_errors=False)
