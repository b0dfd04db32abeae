"""What the chat says about itself, in the chat's language: where its conversation is kept (it cannot
be read, a reply is being written elsewhere, it is not saved yet), and why a reply failed.

The notice about the store is one line that each new state replaces (`Notices`); a failed reply is
a message of its own in the conversation (`failure_notice`), where the reply would have been.
"""

from __future__ import annotations

import logging

from chat_ui._model import AgentError, Message
from chat_ui._session._frontend import ChatFrontend
from present_choices._translation import N_, Translation

log = logging.getLogger(__name__)

UNAVAILABLE = N_(
    "This conversation is unavailable: it cannot be read from where it is kept right now. Nothing "
    "is lost; it is tried again every few seconds, and shown as soon as it can be read."
)
ELSEWHERE = N_(
    "A reply is still being written in another tab or window of this chat. It shows here once it "
    "is done; until then, this chat takes no message."
)
UNSAVED = N_(
    "Not saved yet: the conversation cannot be written to where it is kept right now. Nothing is "
    "lost: a message you send waits in the message box, and everything is saved as soon as it can be."
)


class Notices:
    """The chat's one notice about its store, said by `frontend` in `translation`."""

    def __init__(self, frontend: ChatFrontend, translation: Translation) -> None:
        self.frontend = frontend
        self.translation = translation
        self.text: str | None = None
        """The notice said now, as the catalog names it (None: none)."""

    def say(self, text: str | None, *, waiting: bool = False) -> bool:
        """Say `text` (one of the texts above; None: nothing), `waiting` for a wait that is no
        failure; False when it is what is said already."""
        if text == self.text:
            return False
        self.text = text
        shown = None if text is None else self.translation.gettext(text)
        self.frontend.show_notice(shown, waiting=waiting)
        return True

    def unsaved(self, unsaved: bool) -> None:
        """A `SaveQueue` could not save (or, with False, has saved everything since)."""
        self.say(UNSAVED if unsaved else None)


def failure_notice(error: Exception, translation: Translation) -> Message:
    """The notice of a reply that failed with `error`, which is logged: with a traceback only where
    it helps (an `AgentError` already says what went wrong, in the person's words)."""
    log.warning("the agent failed to reply: %s", error, exc_info=not isinstance(error, AgentError))
    if isinstance(error, AgentError):
        return {"role": "error", "content": str(error)}
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    text = translation.gettext(
        "The agent could not reply ({detail}). Send your message again to retry.", detail=detail
    )
    return {"role": "error", "content": text}
