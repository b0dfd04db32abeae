"""Driving a conversation, for any front end: no UI framework here.

`ChatSession` (`_chat_session`) carries one conversation on: it feeds the conversation to the agent,
turns the reply's chunks into the assistant message as they stream (`_streaming_reply`: shown and
saved, each throttled by `_throttle`), takes what a click or a typed message adds, has each message
shown with the blocks it decides, pending, answered or outdated (`_shown_history`, by the rules of
`chat_ui._model`), reads the conversation from its store when it starts (`_loading`) and saves
every change through it, and words what the chat says about itself (`_notices`). A front end
implements `ChatFrontend` and `ReplyView` (`_frontend`) to draw what the session tells it, and hands
the person's actions to the session: `send`/`say`, `pick`, `answer`, `stop`, `start_over`. NiceGUI's
`ChatView` is one such front end.

It stands on the agents (`chat_ui._agents`) and the stores (`chat_ui._stores`), and under every
front end.
"""

from chat_ui._session._chat_session import ChatSession
from chat_ui._session._frontend import ChatFrontend, ReplyView

__all__ = ["ChatFrontend", "ChatSession", "ReplyView"]
