"""What a front end does for a `ChatSession`: draw what the session decided, nothing more.

The session owns the conversation and every decision about it: which messages there are, what each
block shows, when the chat is busy, what the chat has to say about its store. It tells the front end
through these two protocols, in the order things happen; the front end draws, and hands the
person's actions back to the session (`ChatSession.send`, `pick`, `answer`, `stop`, `start_over`).
NiceGUI's `ChatView` is one; a Gradio or Streamlit adapter is another.
"""

from __future__ import annotations

from typing import Protocol

from chat_ui._model import BlockUpdate, Message, ReplyDraft


class ReplyView(Protocol):
    """One reply while it streams, as a front end shows it (`ChatFrontend.start_reply` makes one
    for each reply). Nothing of it is in the history until it has ended."""

    def show(self, draft: ReplyDraft) -> None:
        """Show the reply so far: its text, the block it asks (`draft.asked`), or the placeholder
        of a block on its way (`draft.preparing`). Called at most every `RENDER_INTERVAL` seconds
        (however many chunks came), never while the draft says nothing."""
        ...

    def finish(self, message: Message, blocks: BlockUpdate) -> None:
        """The reply ended as `message`, now the history's `blocks.index`-th: show it as a reload
        will show it, its blocks as `blocks` says (its interrupts, when it has any, are new)."""
        ...

    def discard(self) -> None:
        """Show nothing of the reply: it failed (a notice follows), was stopped, or said nothing."""
        ...


class ChatFrontend(Protocol):
    """Where a `ChatSession` shows its conversation."""

    def show_message(self, message: Message, blocks: BlockUpdate | None) -> None:
        """Show `message` after those shown. `blocks` is what the blocks of a reply show (the
        choices it asks, its interrupts; `blocks.index` is its place in the history, by which later
        updates name it); None for a message that has no blocks to draw: the person's message, a
        notice of the app (role `error`), an answer to an interrupt (its interrupt's group shows
        it), a reply that said nothing."""
        ...

    def show_blocks(self, blocks: BlockUpdate) -> None:
        """A later message has decided the blocks of the reply at `blocks.index`: show them so."""
        ...

    def start_reply(self) -> ReplyView:
        """A reply begins: where it is shown while it streams."""
        ...

    def clear_messages(self) -> None:
        """Forget every message shown: the conversation is shown again from its start."""
        ...

    def set_busy(self, busy: bool) -> None:
        """A reply is under way (the chat takes no message until it ends), or none is."""
        ...

    def set_available(self, available: bool) -> None:
        """Whether the chat takes messages at all: not while its conversation is being read."""
        ...

    def show_notice(self, text: str | None, *, waiting: bool = False) -> None:
        """Say `text` about where the conversation is kept (None: nothing to say); `waiting`, for
        a wait that is no failure (a reply still being written elsewhere)."""
        ...

    def forget_typed(self, text: str) -> None:
        """The person's message `text` is taken: the message box may let it go."""
        ...
