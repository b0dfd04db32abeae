"""Which agent a chat app runs, read from the environment: the same names as `choices-chat`'s options.

`CHOICES_CHAT_AGENT` (`demo` by default, `script`, `llm`, `ag-ui`), `CHOICES_CHAT_SCRIPT`,
`CHOICES_CHAT_MODEL`, `CHOICES_CHAT_BASE_URL` and `CHOICES_CHAT_URL` choose it. The Gradio and
Streamlit examples read them here, so an app that a framework starts (`streamlit run app.py`) takes
its agent the same way as one started with its own options. A bad value is one `SettingError`, whose
message names the variable and what is allowed: an app shows that line, never a traceback.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from chat_ui._agents._agent import Agent
from chat_ui._agents._demo import DemoAgent
from chat_ui._agents._script import ScriptError, load_script
from present_choices._extras import missing_extra

AGENT = "CHOICES_CHAT_AGENT"
SCRIPT = "CHOICES_CHAT_SCRIPT"
MODEL = "CHOICES_CHAT_MODEL"
BASE_URL = "CHOICES_CHAT_BASE_URL"
URL = "CHOICES_CHAT_URL"
AGENTS = ("demo", "script", "llm", "ag-ui")


class SettingError(ValueError):
    """A variable whose value cannot be used; the message names it and says what is allowed."""


@dataclass(frozen=True)
class AgentSettings:
    """The agent chosen: `agent` one of `AGENTS`, with what that kind needs."""

    agent: str = "demo"
    script: str | None = None
    model: str | None = None
    base_url: str | None = None
    url: str | None = None


def settings_from_environment(environ: Mapping[str, str] | None = None) -> AgentSettings:
    """The settings in `environ` (by default this process's); an empty variable counts as unset."""
    environ = os.environ if environ is None else environ

    def value(name: str) -> str | None:
        return environ.get(name, "").strip() or None

    agent = value(AGENT) or "demo"
    if agent not in AGENTS:
        raise SettingError(
            f"{AGENT} must be {', '.join(AGENTS[:-1])} or {AGENTS[-1]}, got {agent!r}"
        )
    return AgentSettings(agent, value(SCRIPT), value(MODEL), value(BASE_URL), value(URL))


def build_agent(settings: AgentSettings) -> Agent:
    """The agent `settings` choose, checked before anything is served."""
    if settings.agent == "script":
        return _script_agent(settings)
    if settings.agent == "llm":
        return _llm_agent(settings)
    if settings.agent == "ag-ui":
        return _agui_agent(settings)
    return DemoAgent()


def agent_from_environment(environ: Mapping[str, str] | None = None) -> Agent:
    """The agent the environment chooses; `SettingError` for a bad value."""
    return build_agent(settings_from_environment(environ))


def _script_agent(settings: AgentSettings) -> Agent:
    if settings.script is None:
        raise SettingError(
            f"{AGENT}=script needs {SCRIPT}, the path of a script file (a JSON array of strings: "
            "the greeting, then one reply per user message)"
        )
    try:
        return load_script(settings.script)
    except ScriptError as error:
        raise SettingError(f"{SCRIPT}: {error}") from None


def _llm_agent(settings: AgentSettings) -> Agent:
    if settings.model is None:
        raise SettingError(
            f"{AGENT}=llm needs {MODEL}=PROVIDER:MODEL, for example openai:gpt-4o-mini"
        )
    try:
        from chat_ui._agents.llm import LLMAgent
        from chat_ui._agents.llm._model import ModelSettingError
    except ImportError as error:
        raise _missing_extra("llm", error) from None
    try:
        return LLMAgent(settings.model, base_url=settings.base_url)
    except ModelSettingError as error:
        raise SettingError(f"{MODEL}/{BASE_URL}: {error}") from None


def _agui_agent(settings: AgentSettings) -> Agent:
    if settings.url is None:
        raise SettingError(
            f"{AGENT}=ag-ui needs {URL}, the address of the agent's AG-UI endpoint, for example "
            "http://127.0.0.1:8000/agent"
        )
    try:
        from chat_ui._agents.agui import AGUIAgent
    except ImportError as error:
        raise _missing_extra("ag-ui", error) from None
    try:
        return AGUIAgent(settings.url)
    except ValueError as error:
        raise SettingError(f"{URL}: {error}") from None


def _missing_extra(extra: str, error: ImportError) -> SettingError:
    """`AGENT=extra` needs `extra`, and how to add it where this runs (`present_choices._extras`:
    worded as every program of the project words it)."""
    return SettingError(missing_extra(f"{AGENT}={extra}", extra, error))
