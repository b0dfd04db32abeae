"""Who follows a pending question: the calls waiting for its ending, the callbacks to run once it
has ended, the listeners told whenever it changed elsewhere (another instance, the store), and those
told of every change said of it here (its shared store, which writes each one)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, Literal, TypeVar

from provide_choice._contract._outcomes import Ending

Question = TypeVar("Question")
Change = Literal["shown", "touched", "url", "deadline", "settings", "kept", "view"]
"""What was said of a question here: one of the parts a shared store keeps of it."""


class Followers(Generic[Question]):
    """The followers of one question, which is handed to each callback and listener."""

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[Ending]] = []
        self._callbacks: list[Callable[[Question], object]] = []
        self._listeners: list[Callable[[Question], object]] = []
        self._said: list[Callable[[Question, Change], object]] = []

    async def wait(self) -> Ending:
        """The ending, once `ended` gives it. Cancelling the wait leaves the others waiting."""
        waiter: asyncio.Future[Ending] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def on_end(self, callback: Callable[[Question], object]) -> None:
        self._callbacks.append(callback)

    def on_change(self, listener: Callable[[Question], object]) -> None:
        self._listeners.append(listener)

    def on_said(self, follower: Callable[[Question, Change], object]) -> None:
        self._said.append(follower)

    def ended(self, question: Question, outcome: Ending) -> None:
        """The question ended with `outcome`: every waiter gets it, every callback runs once."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(outcome)
        self._waiters.clear()
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(question)

    def changed(self, question: Question) -> None:
        for listener in list(self._listeners):
            listener(question)

    def said(self, question: Question, change: Change) -> None:
        """`change` was made to the question here (not heard from elsewhere)."""
        for follower in self._said:
            follower(question, change)
