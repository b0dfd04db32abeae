"""Surfaces that follow every question: a transport that also shows each question asked on any
other transport (Telegram: the person answers from their phone), as one of the alert channels.

Such a transport `Mirrors`: besides `show` (a question asked there), it has `mirror`, which the
alerts call for a question asked anywhere else, when its other alerts go: once it is shown and has
waited `alert_after_seconds` untouched, while the person's `alerts` setting leaves the channel
named as the transport on. What it shows ends the question as any surface does (`finish`, the
contract's meaning, the first answer anywhere wins, the ending saying `via` where it came from)
and follows its end (`on_finish`). `_registry.build_transports` hands each one it built to the
alerts of the server (`TransportSetup.alerts`), which is also where a transport says that an alert
could not be delivered.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from provide_choice._question import PendingQuestion


@runtime_checkable
class Mirrors(Protocol):
    """A transport that also follows the questions asked on other transports. Its class may set
    `mirror_label`, how the settings word its channel ("In Telegram (the linked chat)"); without
    one, its kind's label."""

    async def mirror(self, question: PendingQuestion) -> None:
        """Show `question`, asked on another transport, here too, and follow it to its end.
        Return soon: whatever it keeps doing for the question (waiting for an answer, trying
        again while its service is away) runs as its own task. Raising only costs a warning."""
        ...


class Alerts(Protocol):
    """What a transport may ask of the server's alerts (`TransportSetup.alerts`)."""

    def add_mirror(self, name: str, mirror: Mirrors) -> None:
        """From now on, call `mirror.mirror(question)` for each question asked elsewhere, as the
        channel `name` of the `alerts` setting."""
        ...

    def warn(self, line: str) -> None:
        """Say `line` on stderr, as every alert's warning is said ("provide-choice: warning: "
        before it; while a question is drawn in the terminal, in its status line, and whole once
        the screen is gone: `provide_choice._notices`): a service away, once for the whole time
        it is away."""
        ...

    def failed(self, question: PendingQuestion, problem: str) -> None:
        """Note in the question's history that an alert of it could not be delivered:
        `problem` names the channel and says why ("telegram: ..."), as `alert_failed`."""
        ...
