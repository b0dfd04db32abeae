"""`choices-chat --agent llm`: what it serves with, and every mistake ending it before it serves."""

from __future__ import annotations

from pathlib import Path

import pytest
from chat_cli import exit_message, loaded_before_and_after, serve
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

from nicegui.storage import Storage

import chat_ui.__main__ as cli
from chat_ui import LLMAgent
from chat_ui._agents.llm._agent import DEFAULT_SYSTEM_PROMPT


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "NICEGUI_STORAGE_PATH"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    monkeypatch.setattr(Storage, "path", Storage.path)  # main() sets it; restored afterwards
    monkeypatch.setattr(cli, "_claim_port", lambda host, port: port)  # nothing is served


def test_an_openai_model_with_its_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    agent, subtitle = serve(monkeypatch, ["--agent", "llm", "--model", "openai:gpt-4o-mini"])
    assert isinstance(agent, LLMAgent)
    assert agent.model.model_name == "gpt-4o-mini"
    assert agent.system_prompt == DEFAULT_SYSTEM_PROMPT
    assert subtitle == "model: openai:gpt-4o-mini"


def test_a_base_url_needs_no_key_and_speaks_chat_completions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = [
        "--agent",
        "llm",
        "--model",
        "openai:qwen2.5",
        "--base-url",
        "http://localhost:11434/v1",
    ]
    agent, _ = serve(monkeypatch, argv)
    assert type(agent.model).__name__ == "OpenAIChatModel"
    assert agent.model.base_url == "http://localhost:11434/v1/"


def test_a_system_prompt_file_replaces_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Answer like a pirate.\n", encoding="utf-8")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    argv = ["--agent", "llm", "--model", "anthropic:claude-sonnet-4-5"]
    agent, _ = serve(monkeypatch, [*argv, "--system-prompt", str(prompt)])
    assert agent.system_prompt == "Answer like a pirate."


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--agent", "llm"], "--agent llm needs --model PROVIDER:MODEL"),
        (["--model", "openai:gpt-4o-mini"], "only used with --agent llm"),
        (["--agent", "demo", "--base-url", "http://x"], "only used with --agent llm"),
        (
            ["--agent", "llm", "--model", "gpt-4o-mini"],
            "'gpt-4o-mini' is not in the form PROVIDER:MODEL, for example openai:gpt-4o-mini",
        ),
        (
            ["--agent", "llm", "--model", "openai:gpt-4o-mini"],
            "needs an API key for the openai provider: set OPENAI_API_KEY, or use a local "
            "OpenAI-compatible server (Ollama, vLLM, LM Studio) with a base URL "
            "(choices-chat --base-url URL)",
        ),
        (["--agent", "llm", "--model", "openai:"], "is not in the form PROVIDER:MODEL"),
        (["--agent", "llm", "--model", "nope:model"], "unknown provider 'nope'"),
        (
            ["--agent", "llm", "--model", "openai:x", "--base-url", "localhost:11434"],
            "must start with http:// or https://",
        ),
        (
            ["--agent", "llm", "--model", "openai:x", "--system-prompt", "/no/such/prompt.txt"],
            "system prompt file /no/such/prompt.txt not found",
        ),
    ],
)
def test_mistakes_exit_2_saying_what_is_expected(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert problem in exit_message(argv, capsys)


def test_regression_a_missing_anthropic_key_names_its_variable_and_no_base_url(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It suggested a base URL for an OpenAI-compatible server, which an Anthropic model cannot use.
    message = exit_message(["--agent", "llm", "--model", "anthropic:claude-sonnet-4-5"], capsys)
    assert message.endswith(
        "choices-chat: error: model 'anthropic:claude-sonnet-4-5' needs an API key for the "
        "anthropic provider: set ANTHROPIC_API_KEY\n"
    )


def test_importing_chat_ui_does_not_load_pydantic_ai() -> None:
    assert loaded_before_and_after("pydantic_ai", "LLMAgent") == ["False", "True"]
