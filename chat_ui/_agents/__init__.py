"""The agents: what answers in the chat. `_agent` is the protocol every agent follows (`Agent`);
`_demo` the offline demo (`DemoAgent`), `_script` a scripted one (`ScriptAgent`, `load_script`).

Two sub-packages put a real agent behind the chat, each needing its extra and imported only when
used (importing this package loads neither): `llm/` a language model through pydantic-ai (extra
`llm`), `agui/` any agent served over AG-UI (extra `ag-ui`). An agent sees the conversation
(`chat_ui._model`) and nothing of how it is shown or kept.
"""

from chat_ui._agents._agent import Agent
from chat_ui._agents._demo import DemoAgent
from chat_ui._agents._script import ScriptAgent, ScriptError, load_script

__all__ = ["Agent", "DemoAgent", "ScriptAgent", "ScriptError", "load_script"]
