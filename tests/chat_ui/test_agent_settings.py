"""The agent of a chat app from `CHOICES_CHAT_*` variables, as the Gradio and Streamlit examples take
it: each bad value is one line naming the variable and what is allowed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from chat_ui._agents import DemoAgent, ScriptAgent
from chat_ui._agents._settings import (
    SettingError,
    agent_from_environment,
    settings_from_environment,
)


def test_the_demo_by_default_and_empty_variables_count_as_unset() -> None:
    assert isinstance(agent_from_environment({}), DemoAgent)
    assert isinstance(agent_from_environment({"CHOICES_CHAT_AGENT": " "}), DemoAgent)


def test_a_script_from_its_file(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["Hi", "Bye"]))
    agent = agent_from_environment(
        {"CHOICES_CHAT_AGENT": "script", "CHOICES_CHAT_SCRIPT": str(script)}
    )
    assert isinstance(agent, ScriptAgent)
    assert agent.replies == ["Hi", "Bye"]


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        (
            {"CHOICES_CHAT_AGENT": "gpt"},
            "CHOICES_CHAT_AGENT must be demo, script, llm or ag-ui, got 'gpt'",
        ),
        ({"CHOICES_CHAT_AGENT": "script"}, "CHOICES_CHAT_AGENT=script needs CHOICES_CHAT_SCRIPT"),
        (
            {"CHOICES_CHAT_AGENT": "script", "CHOICES_CHAT_SCRIPT": "/nowhere/script.json"},
            "CHOICES_CHAT_SCRIPT: script file /nowhere/script.json not found; a script file must "
            "hold a JSON array of strings",
        ),
        (
            {"CHOICES_CHAT_AGENT": "llm"},
            "CHOICES_CHAT_AGENT=llm needs CHOICES_CHAT_MODEL=PROVIDER:MODEL, for example "
            "openai:gpt-4o-mini",
        ),
        ({"CHOICES_CHAT_AGENT": "ag-ui"}, "CHOICES_CHAT_AGENT=ag-ui needs CHOICES_CHAT_URL"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable(environ: dict[str, str], said: str) -> None:
    with pytest.raises(SettingError) as error:
        agent_from_environment(environ)
    assert str(error.value).startswith(said)
    assert "\n" not in str(error.value)


@pytest.mark.skipif(importlib.util.find_spec("pydantic_ai") is None, reason="needs the llm extra")
def test_a_model_without_its_provider_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingError, match=r"^CHOICES_CHAT_MODEL/CHOICES_CHAT_BASE_URL: model"):
        agent_from_environment({"CHOICES_CHAT_AGENT": "llm", "CHOICES_CHAT_MODEL": "gpt-4o"})


@pytest.mark.skipif(importlib.util.find_spec("ag_ui") is None, reason="needs the ag-ui extra")
def test_an_address_that_is_no_url_names_the_variable() -> None:
    with pytest.raises(SettingError, match=r"^CHOICES_CHAT_URL: the AG-UI agent's address"):
        agent_from_environment({"CHOICES_CHAT_AGENT": "ag-ui", "CHOICES_CHAT_URL": "localhost"})


def test_the_settings_read() -> None:
    settings = settings_from_environment(
        {
            "CHOICES_CHAT_AGENT": "llm",
            "CHOICES_CHAT_MODEL": "openai:qwen2.5",
            "CHOICES_CHAT_BASE_URL": "http://localhost:11434/v1",
        }
    )
    assert (settings.agent, settings.model, settings.base_url) == (
        "llm",
        "openai:qwen2.5",
        "http://localhost:11434/v1",
    )
