"""Any agent served over AG-UI behind the chat (the `ag-ui` extra; importing this package loads the
protocol's types): `_agent` (`AGUIAgent`, one run over HTTP), `_messages` (what is posted: the
conversation, `present_choices` as a frontend tool, the resume of interrupts), `_events` (what the
chat makes of the events that come back)."""

from chat_ui._agents.agui._agent import AGUIAgent

__all__ = ["AGUIAgent"]
