"""What the instances sharing a Redis say to each other, and whether that Redis answers.

Every instance listens on one channel (`events`): an ending carries its outcome, so the call that
waits on another instance ends within one message (pub/sub, not polling); a change says only which
question changed, and is read again by the instances that hold it. An instance skips the changes
it made itself. After a connection lost, the listener connects again and has everything held read
again: what was said meanwhile was missed.

Whether Redis answers is one `Reach` per store: every command runs in it, a failure becomes
`StoreUnavailable` (naming Redis with its password as `***`, saying why), every page of every
question held here is told when Redis goes away or comes back, and so is the person at the server
(one line each time, through `provide_choice._notices`: a question drawn in its terminal stays
whole).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import cast

from redis.exceptions import ConnectionError as ConnectionLost
from redis.exceptions import TimeoutError as NoAnswer

from present_choices._addresses import without_password
from present_choices._redis import connect
from provide_choice._contract._meaning import ENDING_ADAPTER
from provide_choice._notices import PREFIX, say, warn
from provide_choice._question._store import EventKind, Events, StoreUnavailable

RECONNECT_SECONDS = 1.0
UNREACHABLE = (OSError, ConnectionLost, NoAnswer)


class Reach:
    """Whether the Redis at `url` answers (`problem`: why not; None while it does), told to
    `events` each time that changes."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.problem: str | None = None
        self.events: Events | None = None
        self.answered = False
        """Whether it ever answered: a Redis away at start is the command's to say (it stops)."""

    @contextlib.asynccontextmanager
    async def commands(self) -> AsyncIterator[None]:
        """Run Redis commands: `StoreUnavailable` (saying why) when Redis cannot be reached, and
        every instance's pages told when it goes away or comes back."""
        try:
            yield
        except UNREACHABLE as error:
            self.away(error)
            raise StoreUnavailable(cast(str, self.problem)) from None
        self.back()

    def away(self, error: BaseException) -> None:
        shown = without_password(self.url)
        reason = (str(error) or type(error).__name__).replace(self.url, shown)
        problem = f"the question store, Redis at {shown}, is unreachable ({reason.rstrip('.')})"
        if problem != self.problem:
            if self.problem is None and self.answered:
                warn(f"{problem}; questions wait for it")
            self.problem = problem
            if self.events is not None:
                self.events.health_changed()

    def back(self) -> None:
        self.answered = True
        if self.problem is not None:
            say(f"{PREFIX}the question store, Redis at {without_password(self.url)}, answers again")
            self.problem = None
            if self.events is not None:
                self.events.health_changed()


def event_message(
    kind: EventKind, question_id: str, instance: str, outcome: str | None = None
) -> str:
    """What `instance` says on the channel: question `question_id` ended (with `outcome`, as
    JSON) or changed."""
    return json.dumps({"kind": kind, "id": question_id, "from": instance, "outcome": outcome})


async def hear(url: str, channel: str, instance: str, reach: Reach) -> None:
    """Hear every instance's events on `channel` and tell `reach.events`, for good: after a
    connection lost, connect again, and have everything held read again (what was said meanwhile
    was missed)."""
    events = reach.events
    assert events is not None
    # No second try inside redis-py: a connection lost must reach this loop, which reads again
    # what was missed; a pub/sub connection redis-py restored by itself would hide the loss.
    listener = connect(
        url, retries=0, decode_responses=True, socket_timeout=None, health_check_interval=5
    )
    try:
        while True:
            pubsub = listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel)
                reach.back()
                events.reconnected()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        _heard(message["data"], instance, events)
            except UNREACHABLE as error:
                reach.away(error)
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                with contextlib.suppress(*UNREACHABLE):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
    finally:
        await listener.aclose()


def _heard(data: str, instance: str, events: Events) -> None:
    try:
        message = json.loads(data)
        kind, question_id = message["kind"], message["id"]
        outcome = message.get("outcome")
        ending = None if outcome is None else ENDING_ADAPTER.validate_json(outcome)
    except (ValueError, KeyError, TypeError):
        return  # not one of ours
    if kind == "changed" and message.get("from") == instance:
        return  # this process made the change
    if kind in ("finished", "changed"):
        events.heard(kind, question_id, ending)
