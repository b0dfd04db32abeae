"""The alert channels that transports add: one for each registered transport that follows every
question asked anywhere (`provide_choice.transports.Mirrors`: Telegram, Slack).

Such a transport is a channel of the person's `alerts` setting, named as the transport: on by
default (it is only built once it is set up), switched off like any channel
(`{"alerts": {"telegram": false}}`), and offered on every surface that offers the channels, with
its label. Registering its transport adds it here (`_transports._registry`); the settings read
the channels from here when they check a change, so one registered later is accepted at once.
"""

from __future__ import annotations

from collections.abc import Callable

_channels: dict[str, str] = {}


def add_mirror_channel(name: str, label: str) -> Callable[[], None]:
    """Add the channel `name`, worded `label` where the channels are offered; returns what removes
    it again."""
    _channels[name] = label

    def remove() -> None:
        _channels.pop(name, None)

    return remove


def mirror_channels() -> dict[str, str]:
    """The channels transports added, by name, with how each is worded, in the order they came."""
    return dict(_channels)
