"""The transport seam: what a transport written outside this package needs, and nothing private.

A transport is a class with a `kind` (a `TransportKind`: its name, its label, where it stands in the
automatic order), a `build(setup)` class method and an `async show(question, caller)`; it reads
`question.interaction.request` (or `.batch`) and ends the question with `question.finish(...)`.
Register it with `register_transport(TheClass)`, or install it: a distribution that declares it
under the entry-point group `provide_choice.transports` (`name = "module:Class"`) is loaded by
`provide-choice serve`, `ask` and `inbox` at start. `RecommendedTransport` is a ready stand-in
for a person, for testing agents.

A transport may also follow every question asked on the others (`Mirrors`: `async mirror(question)`),
as the channel of the person's `alerts` setting named as it: the server's alerts call it once the
question is shown and has waited `alert_after_seconds` untouched. `TransportSetup.alerts` is where
it says an alert could not be delivered (`warn(line)` on stderr, `failed(question, problem)` in
the history). A transport with work to end before its process exits `Closes` (`async aclose()`).

What an answer means is the contract's, on every surface: a transport reports what the person did
as a `Submission` and `answer_from` says what it means (or why it is refused); `count_refusal`,
`choose_text`, `shown_placeholder` and `submits_on_selection` word and apply the same rules as
the page. `answered_where(name)` says where a question was answered, for an ending's message.

Two-way chat channels (Telegram, Slack) share their words and steps, so each reads the same:
`steps_of` (a batch one message after another), `chat_submission` (what Done or a typed answer
sends, or why not), `ending_words` (how a question ended, where, and by whom: an ending's
`person`, which a surface many may answer on sets and the history keeps), `answer_words`,
`time_left`, `takes_text`; and they stay out of the way while their service is away:
`sent_at_last`, `tried_for`, `backoff`, `OutageNotice` (said once per outage); `Followed` finds
the question a message belongs to, and `ChatConversation` is one question's life in a chat (its
message sent as soon as it can be, its messages saying how it ended), a chat saying only how it
sends and edits its messages. `ChatTransport` shows and mirrors each question as one such
conversation and lets their endings go out before it closes, a chat saying only how it makes one
and how it starts and stops listening.

A transport class may add a command of its own to `provide-choice`, named as it (`command`, a
`TransportCommand`: `provide-choice telegram link`). A plug-in keeps what it needs (a token, a
chat) in its own section of the settings file, under its
name: `plugin_settings(name, variables)` reads it, environment variables winning, and
`save_plugin_settings(name, changes)` writes into it; nothing of it ever reaches a surface.

Each name loads on first use (PEP 562), as the package's own: a plug-in that names only what it
uses at import loads only that, so a command listing the plug-ins stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from present_choices._lazy_names import lazy_names as _lazy_names

if TYPE_CHECKING:
    from provide_choice._alerts import Alerts, Mirrors
    from provide_choice._contract._batch import BatchQuestion, BatchRequest
    from provide_choice._contract._meaning import Submission, answer_from
    from provide_choice._contract._outcomes import (
        Answered,
        BatchAnswered,
        Cancelled,
        Ending,
        TimedOut,
    )
    from provide_choice._contract._presentation import (
        choose_text,
        count_refusal,
        shown_placeholder,
        submits_on_selection,
    )
    from provide_choice._contract._request import ProvideChoiceOption, ProvideChoiceRequest
    from provide_choice._contract._response import summarize
    from provide_choice._contract._settings import InteractionSettings
    from provide_choice._contract._transport_table import (
        ClientFeatures,
        TransportKind,
        answered_where,
    )
    from provide_choice._question import (
        AgentClient,
        Interaction,
        LiveQuestion,
        PendingQuestion,
        StoreUnavailable,
        TransportError,
    )
    from provide_choice._settings_file import SectionNotSaved, plugin_settings, save_plugin_settings
    from provide_choice._transports._base import (
        Caller,
        Closes,
        InputNeeded,
        Launch,
        Resumable,
        Transport,
        TransportCommand,
        TransportSetup,
    )
    from provide_choice._transports._chat_transport import ChatTransport
    from provide_choice._transports._chats import (
        ChatConversation,
        Followed,
        Following,
        OutageNotice,
        Step,
        answer_words,
        backoff,
        chat_submission,
        ending_words,
        sent_at_last,
        steps_of,
        takes_text,
        time_left,
        tried_for,
    )
    from provide_choice._transports._plug_ins import (
        ENTRY_POINT_GROUP,
        load_plugins,
        register_transport,
    )
    from provide_choice._transports._recommended import RecommendedTransport

_MODULES = {
    "AgentClient": "provide_choice._question",
    "Alerts": "provide_choice._alerts",
    "Answered": "provide_choice._contract._outcomes",
    "BatchAnswered": "provide_choice._contract._outcomes",
    "BatchQuestion": "provide_choice._contract._batch",
    "BatchRequest": "provide_choice._contract._batch",
    "Caller": "provide_choice._transports._base",
    "Cancelled": "provide_choice._contract._outcomes",
    "ChatConversation": "provide_choice._transports._chats",
    "ChatTransport": "provide_choice._transports._chat_transport",
    "ClientFeatures": "provide_choice._contract._transport_table",
    "Closes": "provide_choice._transports._base",
    "ENTRY_POINT_GROUP": "provide_choice._transports._plug_ins",
    "Ending": "provide_choice._contract._outcomes",
    "Followed": "provide_choice._transports._chats",
    "Following": "provide_choice._transports._chats",
    "InputNeeded": "provide_choice._transports._base",
    "Interaction": "provide_choice._question",
    "InteractionSettings": "provide_choice._contract._settings",
    "Launch": "provide_choice._transports._base",
    "LiveQuestion": "provide_choice._question",
    "Mirrors": "provide_choice._alerts",
    "OutageNotice": "provide_choice._transports._chats",
    "PendingQuestion": "provide_choice._question",
    "ProvideChoiceOption": "provide_choice._contract._request",
    "ProvideChoiceRequest": "provide_choice._contract._request",
    "RecommendedTransport": "provide_choice._transports._recommended",
    "Resumable": "provide_choice._transports._base",
    "SectionNotSaved": "provide_choice._settings_file",
    "Step": "provide_choice._transports._chats",
    "StoreUnavailable": "provide_choice._question",
    "Submission": "provide_choice._contract._meaning",
    "TimedOut": "provide_choice._contract._outcomes",
    "Transport": "provide_choice._transports._base",
    "TransportCommand": "provide_choice._transports._base",
    "TransportError": "provide_choice._question",
    "TransportKind": "provide_choice._contract._transport_table",
    "TransportSetup": "provide_choice._transports._base",
    "answer_from": "provide_choice._contract._meaning",
    "answer_words": "provide_choice._transports._chats",
    "answered_where": "provide_choice._contract._transport_table",
    "backoff": "provide_choice._transports._chats",
    "chat_submission": "provide_choice._transports._chats",
    "choose_text": "provide_choice._contract._presentation",
    "count_refusal": "provide_choice._contract._presentation",
    "ending_words": "provide_choice._transports._chats",
    "load_plugins": "provide_choice._transports._plug_ins",
    "plugin_settings": "provide_choice._settings_file",
    "register_transport": "provide_choice._transports._plug_ins",
    "save_plugin_settings": "provide_choice._settings_file",
    "sent_at_last": "provide_choice._transports._chats",
    "shown_placeholder": "provide_choice._contract._presentation",
    "steps_of": "provide_choice._transports._chats",
    "submits_on_selection": "provide_choice._contract._presentation",
    "summarize": "provide_choice._contract._response",
    "takes_text": "provide_choice._transports._chats",
    "time_left": "provide_choice._transports._chats",
    "tried_for": "provide_choice._transports._chats",
}
"""Where each public name lives: loaded from there on first use (PEP 562)."""

__all__ = [
    "ENTRY_POINT_GROUP",
    "AgentClient",
    "Alerts",
    "Answered",
    "BatchAnswered",
    "BatchQuestion",
    "BatchRequest",
    "Caller",
    "Cancelled",
    "ChatConversation",
    "ChatTransport",
    "ClientFeatures",
    "Closes",
    "Ending",
    "Followed",
    "Following",
    "InputNeeded",
    "Interaction",
    "InteractionSettings",
    "Launch",
    "LiveQuestion",
    "Mirrors",
    "OutageNotice",
    "PendingQuestion",
    "ProvideChoiceOption",
    "ProvideChoiceRequest",
    "RecommendedTransport",
    "Resumable",
    "SectionNotSaved",
    "Step",
    "StoreUnavailable",
    "Submission",
    "TimedOut",
    "Transport",
    "TransportCommand",
    "TransportError",
    "TransportKind",
    "TransportSetup",
    "answer_from",
    "answer_words",
    "answered_where",
    "backoff",
    "chat_submission",
    "choose_text",
    "count_refusal",
    "ending_words",
    "load_plugins",
    "plugin_settings",
    "register_transport",
    "save_plugin_settings",
    "sent_at_last",
    "shown_placeholder",
    "steps_of",
    "submits_on_selection",
    "summarize",
    "takes_text",
    "time_left",
    "tried_for",
]


__getattr__, __dir__ = _lazy_names(__name__, _MODULES, __all__)
