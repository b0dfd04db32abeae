"""What every two-way chat channel (Telegram, Slack, one written elsewhere) shares: how it walks a
batch, what a "Done" or a typed answer reports, and the words of a question's message once it
ended, so that they read the same in every chat.

- A chat asks a batch one message after another: `steps_of` gives each question with what stands
  above it (the batch's title, the question's header and its place, "2 of 3").
- Done sends what is chosen with the text field left empty (the suggestion, where one is shown,
  stands in for it as on the page); a typed answer sends what is chosen with that text
  (`chat_submission`), or the contract's words for why not (`count_refusal`).
- Once a question ended, its message says how, wherever it ended ("Answered in the terminal:
  PostgreSQL", "Answered in Slack by ada: Login, Search", "Cancelled by the agent", "Timed out: no
  answer before the deadline"): `ending_words`, with the answer in a few words (`answer_words`).
- `time_left` says a countdown as a message does ("45 s", "4 min", "1 h 5 min").
- The service away never blocks: a message is sent again and again with growing pauses
  (`sent_at_last`, `backoff`), an ending's edit tried again for a while (`tried_for`), and the
  outage said once for as long as it lasts (`OutageNotice`).
- `Followed` keeps the questions a chat follows, found by the messages they sent, and forgets one
  `LATE_SECONDS` after it ended: while it has none, the chat stops listening.
- `ChatConversation` is one question in a chat as it is followed: its message sent as soon as it
  can be (`sent_at_last`, the first failure noted in the question's history), and its messages
  saying how it ended once it did, a moment after the answer went to the agent.

Each returns plain text: a chat escapes it for its own markup.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from provide_choice._contract._batch import Asked, BatchRequest
from provide_choice._contract._meaning import Submission
from provide_choice._contract._outcomes import Answered, BatchAnswered, Cancelled
from provide_choice._contract._presentation import count_refusal, shown_placeholder
from provide_choice._contract._request import ProvideChoiceRequest
from provide_choice._contract._settings import InteractionSettings
from provide_choice._contract._transport_table import answered_where

if TYPE_CHECKING:
    from provide_choice._alerts import Alerts
    from provide_choice._question import PendingQuestion

TEXT_SHOWN = 60
"""Characters of a typed answer an ending's words show."""
TIMED_OUT = "Timed out: no answer before the deadline"
CANCELLED_BY_THE_AGENT = "Cancelled by the agent"


@dataclass(frozen=True)
class Step:
    """One question as a chat asks it: a single question, or one of a batch (`id`, `header` and
    `place`: its number and how many the batch holds)."""

    id: str | None
    title: str
    request: ProvideChoiceRequest
    header: str | None = None
    place: tuple[int, int] | None = None

    @property
    def place_words(self) -> str | None:
        """ "Database · 2 of 3" for a batch's question; None for a single one."""
        if self.header is None or self.place is None:
            return None
        number, count = self.place
        return f"{self.header} · {number} of {count}"


def steps_of(asked: Asked) -> list[Step]:
    """The questions of `asked`, in the order a chat asks them."""
    if not isinstance(asked, BatchRequest):
        return [Step(None, asked.title, asked)]
    count = len(asked.questions)
    return [
        Step(item.id, asked.title, item.request, item.name, (number, count))
        for number, item in enumerate(asked.questions, start=1)
    ]


def takes_text(request: ProvideChoiceRequest) -> bool:
    return request.selection_mode in ("text_input", "hybrid")


def chat_submission(
    request: ProvideChoiceRequest,
    settings: InteractionSettings,
    chosen: list[str],
    typed: str | None,
    *,
    text_needed: str,
    no_text: str,
) -> Submission | str:
    """What Done (`typed` None or blank) or a typed answer sends with the options `chosen`, or
    why it cannot be sent: `text_needed` (the chat's words for "type your answer first") when a
    text question is sent empty with no suggestion shown, `no_text` when text is typed for a
    question that takes none, else the contract's count rule."""
    selected = [option.id for option in request.options or () if option.id in chosen]
    if typed is not None and typed.strip():
        if not takes_text(request):
            return no_text
        refusal = count_refusal(request, True, len(selected))
        return refusal or Submission(selected_ids=selected, custom_input=typed)
    suggested = takes_text(request) and shown_placeholder(request, settings) is not None
    if request.selection_mode == "text_input" and not suggested:
        return text_needed
    own_answer = suggested and (request.selection_mode == "text_input" or not selected)
    refusal = count_refusal(request, own_answer, len(selected))
    return refusal or Submission(selected_ids=selected, placeholder_shown=suggested)


def ending_words(question: PendingQuestion) -> str:
    """How `question` ended, in one line: where (the ending's `via`, else where it was asked,
    worded by the transport table), by whom where the surface knew, and what."""
    outcome = question.outcome
    via = getattr(outcome, "via", None)
    where = answered_where(via or question.transport, at_an_address=question.url is not None)
    person = getattr(outcome, "person", None)
    if person:
        where += f" by {person}"
    if isinstance(outcome, Answered):
        return f"Answered {where}: {answer_words(question.interaction.request, outcome)}"
    if isinstance(outcome, BatchAnswered):
        batch = question.interaction.asked
        assert isinstance(batch, BatchRequest)
        parts = [
            f"{item.name}: {answer_words(item.request, outcome.answers[item.id])}"
            for item in batch.questions
            if item.id in outcome.answers
        ]
        return f"Answered {where}: {'; '.join(parts)}"
    if isinstance(outcome, Cancelled):
        return CANCELLED_BY_THE_AGENT if outcome.by == "agent" else f"Cancelled {where}"
    return TIMED_OUT


def answer_words(request: ProvideChoiceRequest, answer: Answered) -> str:
    """An answer in a few words: the options' labels, and the text typed (or suggested)."""
    parts = list(request.labels(answer.selected_ids))
    if answer.custom_input is not None:
        text = " ".join(answer.custom_input.split())
        shown = text if len(text) <= TEXT_SHOWN else text[: TEXT_SHOWN - 1] + "…"
        parts.append(f"“{shown}”")
    return ", ".join(parts) or "nothing selected"


def time_left(seconds: float) -> str:
    """ "45 s", "4 min", "1 h 5 min": rounded down, as a countdown reads."""
    whole = max(int(seconds), 0)
    if whole < 60:
        return f"{whole} s"
    minutes = whole // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


# Trying again while the chat service is away ------------------------------------------------------

BACKOFF_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
"""How long to wait before trying again, one step further after each failure (the last repeats)."""


def backoff(attempt: int) -> float:
    return BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)]


class OutageNotice:
    """Says a chat service's failure on stderr once for as long as it lasts, not once per try:
    the first failure of a kind is said (through the alerts' one path for warnings), the next
    ones of the same kind are not, and the first call that works again (`back`) ends it."""

    def __init__(self, alerts: Alerts) -> None:
        self.alerts = alerts
        self._said: str | None = None
        """The failure said and not over yet."""

    def failed(self, line: str) -> None:
        """Say `line`, unless a failure of the same kind (the words before its first " (") was
        said and is not over."""
        if self._said is None or not line.startswith(self._said.split(" (")[0]):
            self.alerts.warn(line)
        self._said = line

    def back(self) -> None:
        self._said = None


async def sent_at_last(
    send: Callable[[], Awaitable[None]],
    stop: asyncio.Event,
    failed: Callable[[Exception], None],
    failures: tuple[type[Exception], ...],
) -> None:
    """Call `send` until it works or `stop` is set, pausing longer after each of its `failures`
    (`failed` hears of each)."""
    attempt = 0
    while not stop.is_set():
        try:
            await send()
            return
        except failures as failure:
            failed(failure)
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), backoff(attempt))
        attempt += 1


async def tried_for(
    seconds: float,
    edits: Sequence[Callable[[], Awaitable[None]]],
    *,
    passing: tuple[type[Exception], ...],
    final: tuple[type[Exception], ...],
) -> None:
    """Make each edit, trying one again after a `passing` failure (the service away) with growing
    pauses, for `seconds` in all; one that fails for good (`final`: the message deleted) is left."""
    give_up = time.monotonic() + seconds
    for edit in edits:
        attempt = 0
        while True:
            try:
                await edit()
                break
            except final:
                break
            except passing:
                if time.monotonic() + backoff(attempt) > give_up:
                    return
                await asyncio.sleep(backoff(attempt))
                attempt += 1


# The questions a chat follows ----------------------------------------------------------------------

LATE_SECONDS = 120.0
"""How long a chat still hears of a question after it ended (a late press gets "This question has
ended"), before it forgets it and stops listening, if nothing else is open."""


class Following(Protocol):
    """A question as a chat follows it: when it ended, and waits on its work."""

    @property
    def finished(self) -> float | None:
        """When it ended (`time.monotonic()`); None while it is open."""
        ...

    async def quiet(self) -> None:
        """Return once no message of it is being sent (its id is then known)."""
        ...

    async def settled(self) -> None:
        """Return once what it is doing now is done (the ending's edit, once it ended)."""
        ...


Key = TypeVar("Key")
Conversation = TypeVar("Conversation", bound=Following)


class Followed(Generic[Key, Conversation]):
    """The questions a chat follows, each found by the messages it sent (`known(key, c)`): a
    question ended more than `late_seconds` ago is forgotten, and `wanted()` says whether the
    chat must still listen for presses."""

    def __init__(self, late_seconds: float = LATE_SECONDS) -> None:
        self.late_seconds = late_seconds
        self.conversations: list[Conversation] = []
        self._by_message: dict[Key, Conversation] = {}

    def add(self, conversation: Conversation) -> None:
        self.conversations.append(conversation)

    def known(self, message: Key, conversation: Conversation) -> None:
        """`conversation` sent `message`: a press or a reply on it finds it."""
        self._by_message[message] = conversation

    def wanted(self) -> bool:
        """Whether to go on listening: a question open, or one ended within `late_seconds`. The
        ones ended before that are forgotten (a press on them ends as on any other message)."""
        now = time.monotonic()
        kept = [
            conversation
            for conversation in self.conversations
            if conversation.finished is None or now - conversation.finished < self.late_seconds
        ]
        if len(kept) < len(self.conversations):
            self.conversations = kept
            self._by_message = {key: c for key, c in self._by_message.items() if c in kept}
        return bool(kept)

    def open(self) -> bool:
        return any(conversation.finished is None for conversation in self.conversations)

    async def of(self, message: Key) -> Conversation | None:
        """The conversation `message` belongs to. A message being sent right now is known once
        its sending returns: a press on it may come first, so an unknown one waits for that."""
        if message not in self._by_message:
            for conversation in list(self.conversations):
                await conversation.quiet()
        return self._by_message.get(message)

    async def settled(self) -> None:
        """Let every conversation's work out (the endings' edits)."""
        await asyncio.gather(*(conversation.settled() for conversation in self.conversations))


class ChatConversation:
    """One question (or batch) in a chat, as the chat follows it (`Following`): `start` sends its
    message as soon as it can, again and again while the service is away until it is sent or the
    question ended (the first failure noted in the question's history as `service: failure`), and
    once the question ended, its messages say how.

    A chat says how its current message is sent (`_send_current`, which holds `_lock` while it
    sends, so that a press finds the message once sent) and, holding `_lock`, what says how its
    messages ended (`_ending`: the edit to run, with the messages known then). Work it starts
    (`_spawn`) is waited on by `settled`."""

    follow_up_seconds = 0.05
    """How long the edit that says how the question ended waits: the answer goes out to the agent
    first, a moment no person notices."""

    def __init__(
        self,
        question: PendingQuestion,
        alerts: Alerts,
        service: str,
        failures: tuple[type[Exception], ...],
    ) -> None:
        self.question = question
        self.alerts = alerts
        self.service = service
        self.failures = failures
        self.finished: float | None = None
        """When the question ended (`time.monotonic()`), once it has."""
        self.noted = False
        """Whether a failure to send was noted in the question's history (the first one is)."""
        self._ended = asyncio.Event()
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Send the first message (trying again while the service is away), and follow the end."""
        self._spawn(self._deliver())
        self.question.on_finish(lambda _question: self._spawn(self._end()))

    async def settled(self) -> None:
        """Return once what it is doing now is done (the ending's edit, once it ended)."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def quiet(self) -> None:
        """Return once no message of it is being sent (its id is then known)."""
        async with self._lock:
            pass

    async def _send_current(self) -> None:
        """Send the current question's message (holding `_lock`), unless the question ended."""
        raise NotImplementedError

    def _ending(self) -> Coroutine[Any, Any, None]:
        """The edit saying how the question ended, of the messages sent by now (called holding
        `_lock`)."""
        raise NotImplementedError

    async def _deliver(self) -> None:
        """Send the current question's message, again and again while the service is away, until
        it is sent or the question ends (the first failure is noted in its history)."""

        def failed(failure: Exception) -> None:
            if not self.noted:
                self.noted = True
                self.alerts.failed(self.question, f"{self.service}: {failure}")

        await sent_at_last(self._send_current, self._ended, failed, self.failures)

    async def _end(self) -> None:
        """The question ended: its messages say how (once the answer is on its way to the agent:
        see `follow_up_seconds`)."""
        self.finished = time.monotonic()
        self._ended.set()
        await asyncio.sleep(self.follow_up_seconds)
        async with self._lock:  # a message being sent now is sent first, and edited then
            ending = self._ending()
        await ending

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
