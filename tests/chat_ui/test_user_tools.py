"""`choices-chat --agent llm --tools MODULE:NAME`: the tools found, and every way of naming none."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_cli import exit_message
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

from pydantic_ai import Tool

from chat_ui._agents.llm._user_tools import ToolsError, load_tools

MODULE = '''
from pydantic_ai import Tool

def deploy(target: str) -> str:
    """Deploy the service to `target`."""
    return f"deployed to {target}"

def status() -> str:
    return "green"

APPROVED = Tool(deploy, requires_approval=True)
TOOLS = [APPROVED, status]
TWICE = [deploy, deploy]
NONE = []
NUMBERS = (1, 2)
'''


@pytest.fixture(autouse=True)
def tools_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`agent_tools.py` in the current directory, as a person would keep it beside the command."""
    (tmp_path / "agent_tools.py").write_text(MODULE, encoding="utf-8")
    (tmp_path / "broken_tools.py").write_text("import no_such_dependency\n", encoding="utf-8")
    (tmp_path / "failing_tools.py").write_text(
        "raise RuntimeError('no config')\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield
    for name in ("agent_tools", "broken_tools", "failing_tools"):
        sys.modules.pop(name, None)


def test_a_list_of_tools_and_functions_comes_back_in_its_order() -> None:
    approved, status = load_tools("agent_tools:TOOLS")
    assert isinstance(approved, Tool)
    assert approved.requires_approval
    assert approved.name == "deploy"
    assert callable(status)
    assert status() == "green"


def test_one_tool_or_one_function() -> None:
    (tool,) = load_tools("agent_tools:APPROVED")
    assert isinstance(tool, Tool)
    (function,) = load_tools("agent_tools:deploy")
    assert not isinstance(function, Tool)
    assert function("staging") == "deployed to staging"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        (
            "agent_tools",
            "'agent_tools' is not MODULE:NAME, where NAME is a function, a pydantic-ai",
        ),
        (":TOOLS", "is not MODULE:NAME"),
        ("agent_tools:", "is not MODULE:NAME"),
        ("no_such_module:TOOLS", "no module no_such_module here ("),
        (
            "broken_tools:TOOLS",
            "importing broken_tools failed: No module named 'no_such_dependency'",
        ),
        ("failing_tools:TOOLS", "importing failing_tools failed: RuntimeError: no config"),
        ("agent_tools:MISSING", "agent_tools has no MISSING"),
        ("agent_tools:NONE", "NONE is empty; it must be a function, a pydantic-ai Tool, or a list"),
        ("agent_tools:NUMBERS", "NUMBERS holds a int; it must be a function, a pydantic-ai Tool"),
        ("agent_tools:MODULE", "has no MODULE"),
    ],
)
def test_what_gives_no_tools_says_what_is_expected(spec: str, problem: str) -> None:
    with pytest.raises(ToolsError, match=r"^--tools ") as caught:
        load_tools(spec)
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--tools", "agent_tools:TOOLS"], "--tools are only used with --agent llm"),
        (["--agent", "llm", "--tools", "agent_tools:MISSING"], "agent_tools has no MISSING"),
        (
            ["--agent", "llm", "--tools", "agent_tools:TWICE"],
            "--tools: Tool name conflicts with existing tool: 'deploy'",
        ),
    ],
)
def test_the_command_line_exits_2_before_serving(
    argv: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--model", "openai:x", "--base-url", "http://127.0.0.1:9/v1"] if "llm" in argv else []
    assert problem in exit_message([*argv, *base], capsys)
