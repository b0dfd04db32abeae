"""The transport seam: where a question is shown is one `Transport`, chosen by one rule.

A transport only has to show a validated question and finish it with what the person did;
validation before, waiting (bounded by `serve --max-wait`, then polled) and normalization after are
the server's job, the same for all of them. A transport is given the `Caller` (the MCP client of the
call) because some need it: the client's own dialog (elicitation), a page the client opens for the
person (URL-mode elicitation). Each transport is one module or folder whose class describes itself
(`kind`, see `_kinds`) and builds itself (`build`); `_registry` lists them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._response import PendingLaunch
from provide_choice._contract._settings import InteractionSettings
from provide_choice._transports._kinds import ClientFeatures

if TYPE_CHECKING:
    from mcp_types import ElicitRequestParams, ElicitResult, InputRequest

    from provide_choice._server._sessions import PendingQuestion


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

    async def apply_settings(self, changes: object) -> InteractionSettings: ...


class Caller(Protocol):
    """The MCP client that made the call, as far as a transport needs it."""

    @property
    def features(self) -> ClientFeatures:
        """What the client declared it can show, for this connection."""
        ...

    @property
    def input_required(self) -> bool:
        """Whether the connection speaks the 2026-07-28 revision: the server cannot send the
        client a request during a call, so a question goes back as an `input_required` result
        and comes back answered in a retried call."""
        ...

    async def elicit(self, params: ElicitRequestParams) -> ElicitResult:
        """Send `elicitation/create` now and wait for the client's answer (older revisions)."""
        ...

    async def elicitation_complete(self, elicitation_id: str) -> None:
        """Tell the client that the URL-mode elicitation `elicitation_id` has ended."""
        ...


@dataclass(frozen=True)
class InputNeeded:
    """What a transport returns to ask through the client on the 2026-07-28 revision: the call
    ends with these requests, and the client retries it with the answers (`Resumable.resume`)."""

    requests: Mapping[str, InputRequest]
    state: Mapping[str, Any] = field(default_factory=dict)
    """What the transport needs in the next round; the server adds the question's id and
    deadline, and the SDK seals the whole of it, so a client cannot alter it."""


Launch = PendingLaunch | InputNeeded
"""What `show` returns when the call must not wait for the answer now."""


class Transport(Protocol):
    """Shows a question somewhere; the person's answer, cancel or the deadline finish it.

    `show` returns once the question is shown, or raises `TransportError`. It returns a `Launch`
    when the call must end first: the command the person must run (the hand-off), or requests for
    the client (`InputNeeded`); else None, and the call waits. Whatever it shows follows
    `question.on_finish`: the question may end elsewhere (the deadline, the agent's cancel), and
    the surface then says how it ended.
    """

    cancelled_with_the_call: bool
    """Whether the agent cancelling a call that waits for this question cancels the question.
    A hand-off keeps it: the agent's terminal tool may still be showing it to the person."""

    bounded_wait: bool
    """Whether a call waits at most `--max-wait` for this question, then returns `pending`. The
    client's own dialog is not cut short: the client is showing it, and waits for it."""

    async def show(self, question: PendingQuestion, caller: Caller) -> Launch | None: ...


@runtime_checkable
class Resumable(Transport, Protocol):
    """A transport that may return `InputNeeded`, and takes the client's answers back."""

    async def resume(
        self,
        question: PendingQuestion,
        caller: Caller,
        responses: Mapping[str, object],
        state: Mapping[str, Any],
    ) -> Launch | None:
        """Go on with the question given the client's `responses` to the requests of the last
        round (and its `state`): finish it, ask again, or return None to wait for it."""
        ...


Transports = Mapping[str, Transport]
"""A server's transports by name (`_registry.build_transports`)."""
