"""One question as every surface shares it: what was asked, by whom, under which settings, until
when; and the one error a surface raises when it cannot show it.

These sit under the transports (which show an `Interaction`) and the history (which records who
asked), so both read them without knowing the server.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings


class TransportError(Exception):
    """A transport cannot show the question here; the message says why and what to do."""


class AgentClient(NamedTuple):
    """The MCP client that asked, as it names itself (its `clientInfo`): the history and the inbox
    say which agent a question came from."""

    name: str
    version: str


@dataclass(frozen=True)
class Interaction:
    """Everything a transport needs to ask one question, or one batch of questions."""

    asked: Asked
    """What the agent asked: one question, or a batch (`questions`)."""
    settings: InteractionSettings
    deadline: float
    """`time.monotonic()` value after which the question ends with a timeout."""
    note: str | None = None
    """Said at the end of every summary: where the question went instead of where it was asked to."""
    client: AgentClient | None = None
    """The MCP client that asked, when it said who it is."""

    @property
    def request(self) -> ProvideChoiceRequest:
        """The one question asked, for a surface that shows no batches; a batch never reaches
        one (the server refuses it first, `_registry.batch_refusal`), so this is a bug guard."""
        if isinstance(self.asked, BatchRequest):
            raise TransportError("this surface cannot show several questions at once")
        return self.asked

    @property
    def batch(self) -> BatchRequest | None:
        """The batch asked, or None for a single question."""
        return self.asked if isinstance(self.asked, BatchRequest) else None

    @classmethod
    def start(
        cls,
        request: Asked,
        settings: InteractionSettings,
        *,
        note: str | None = None,
        client: AgentClient | None = None,
    ) -> Interaction:
        """An interaction whose deadline runs from now."""
        deadline = time.monotonic() + effective_timeout(request, settings)
        return cls(request, settings, deadline, note, client)


def effective_timeout(request: Asked, settings: InteractionSettings) -> int:
    """The person's timeout override, when set, replaces the agent's timeout."""
    return settings.timeout_override_seconds or request.timeout_seconds


class LiveQuestion(Protocol):
    """An open question as a surface showing it sees it: the settings in force, the time left, and
    the one way to change the settings. `PendingQuestion` is one; the hand-off's terminal, in
    another process, reaches that one over the bridge. No surface keeps settings or a deadline of
    its own: a change goes through `apply_settings`, which returns what is in force after it."""

    @property
    def settings(self) -> InteractionSettings: ...

    def seconds_left(self) -> float: ...

    @property
    def touched(self) -> bool:
        """Whether the person did anything with the question yet."""
        ...

    def touch(self) -> None:
        """The person did something with the question (a key pressed where it is shown)."""

    async def apply_settings(self, changes: object) -> InteractionSettings: ...
