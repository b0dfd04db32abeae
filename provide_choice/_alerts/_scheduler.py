"""When the alerts of a question go: once it is in front of the person, and once more near its end.

`QuestionAlerts` hears of every question of a registry (it is one of its recorders). When a
question is shown, its alerts wait `alert_after_seconds` from its asking (0: they go at once), and
go only if it is still open and the person has not touched it: a system notification on the desktop
where the question is shown outside the agent's client (a page, a terminal), a push alert to
every address listed, and the question itself on every transport that follows questions asked
elsewhere (`_mirrors`: Telegram), each a channel of its own. A reminder goes by push when a fifth
of its time is left (once; the deadline may move, and the reminder with it). The terminal's own alert is written by the terminal that draws
the question (`_transports._terminal_view._alert`), the browser's by its page's script.

Nothing here ever delays or fails a question: alerts run as tasks of their own after a short
pause (the moments right after a question is shown belong to serving it), push delivery in a
thread, each bounded; a push that fails costs one warning (`provide_choice._notices`: never written
across a question drawn in a terminal) and a note in the history.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from provide_choice._alerts._desktop import DesktopAlerts
from provide_choice._alerts._message import (
    desktop_alert,
    outside_the_client,
    page_address,
    push_alert,
    title_of,
)
from provide_choice._alerts._mirrors import Mirrors
from provide_choice._alerts._push import push, push_addresses
from provide_choice._bridge._local_http import open_in_browser
from provide_choice._notices import warn
from provide_choice._question import PendingQuestion, SettledQuestion

ALERT_PAUSE_SECONDS = 0.2
"""How long an alert waits after the question is shown, at least: serving its page comes first."""
REMINDER_SHARE = 0.2
"""The share of a question's time left when its reminder goes."""

Send = Callable[[PendingQuestion], Coroutine[Any, Any, None]]
AlertFailed = Callable[[PendingQuestion, str], None]
"""Told that an alert of the question could not be delivered, and why (the history notes it)."""


class QuestionAlerts:
    """The alerts of one process's questions; a `QuestionRecorder` of its registry."""

    def __init__(
        self,
        *,
        failed: AlertFailed | None = None,
        environ: Mapping[str, str] | None = None,
        desktop: DesktopAlerts | None = None,
    ) -> None:
        self._failed = failed
        self._environ = os.environ if environ is None else environ
        self._desktop = desktop or DesktopAlerts()
        self._mirrors: dict[str, Mirrors] = {}
        self._timers: dict[str, dict[str, asyncio.TimerHandle]] = {}
        self._reminded: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def add_mirror(self, name: str, mirror: Mirrors) -> None:
        """Send each question asked elsewhere to `mirror` too, as the channel `name`."""
        self._mirrors[name] = mirror

    def warn(self, line: str) -> None:
        warn(line)

    def failed(self, question: PendingQuestion, problem: str) -> None:
        if self._failed is not None:
            self._failed(question, problem)

    def asked(self, question: PendingQuestion | SettledQuestion) -> None:
        """Nothing yet: the person cannot see it before it is shown (a settled one never is)."""

    def shown(self, question: PendingQuestion) -> None:
        waited = time.monotonic() - question.started
        delay = max(question.settings.alert_after_seconds - waited, ALERT_PAUSE_SECONDS)
        self._at(question, "alert", delay, self._alert)
        self._plan_reminder(question, first=True)

    def changed(self, question: PendingQuestion) -> None:
        """Its deadline may have moved: so does its reminder."""
        if question.shown:
            self._plan_reminder(question)

    def ended(self, question: PendingQuestion | SettledQuestion) -> None:
        for timer in self._timers.pop(question.id, {}).values():
            timer.cancel()
        self._reminded.discard(question.id)

    def _plan_reminder(self, question: PendingQuestion, *, first: bool = False) -> None:
        if question.id in self._reminded:
            return
        total = question.interaction.deadline - question.started
        delay = question.seconds_left() - total * REMINDER_SHARE
        if delay > 0:
            self._at(question, "reminder", delay, self._remind)
        elif not first:  # moved before now: it goes at once
            self._at(question, "reminder", ALERT_PAUSE_SECONDS, self._remind)

    def _at(self, question: PendingQuestion, name: str, delay: float, alert: Send) -> None:
        """Send `alert(question)` in `delay` seconds, in place of the timer of that name."""
        timers = self._timers.setdefault(question.id, {})
        if name in timers:
            timers[name].cancel()
        timers[name] = asyncio.get_running_loop().call_later(delay, self._start, alert, question)

    def _start(self, alert: Send, question: PendingQuestion) -> None:
        task = asyncio.get_running_loop().create_task(alert(question))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _alert(self, question: PendingQuestion) -> None:
        if question.outcome is not None or question.touched:
            return
        alerts = question.settings.alerts
        sending = []
        if alerts.desktop and outside_the_client(question.transport):
            sending.append(self._desktop.send(desktop_alert(question), _opener(question)))
        if alerts.push:
            sending.append(self._push(question, reminder=False))
        sending += [
            self._mirror(question, name, mirror)
            for name, mirror in self._mirrors.items()
            if name != question.transport and alerts.on(name)
        ]
        await asyncio.gather(*sending)

    async def _mirror(self, question: PendingQuestion, name: str, mirror: Mirrors) -> None:
        try:
            await mirror.mirror(question)
        except Exception as error:  # a plug-in's: it may fail in any way, and costs one line
            problem = f"{type(error).__name__}: {error}"
            self.warn(f"{name} could not show {title_of(question)!r}: {problem}")
            self.failed(question, f"{name}: {problem}")

    async def _remind(self, question: PendingQuestion) -> None:
        if question.outcome is None and question.id not in self._reminded:
            self._reminded.add(question.id)
            if question.settings.alerts.push:
                await self._push(question, reminder=True)

    async def _push(self, question: PendingQuestion, *, reminder: bool) -> None:
        addresses = push_addresses(question.settings, self._environ)
        if not addresses:
            return
        problem = await push(addresses, push_alert(question, reminder=reminder))
        if problem is None:
            return
        which = "reminder" if reminder else "alert"
        self.warn(f"the push {which} for {title_of(question)!r} was not delivered: {problem}")
        self.failed(question, f"push {which}: {problem}")


def _opener(question: PendingQuestion) -> Callable[[], object] | None:
    """What a click on the question's desktop alert does: open its page, where it has one."""
    page = page_address(question)
    if page is None:
        return None
    return lambda: open_in_browser(page) if question.outcome is None else None
