"""`choices-chat --agent llm --tools MODULE:NAME` in a real Chromium: the model's own tool, declared
`requires_approval=True` in a module beside the command, asks the person first (issue 32).

The chat runs as a user would run it, in a directory holding `deploy_tools.py`, against `ModelServer`
(the Chat Completions streaming format): the model calls `deploy`, the chat shows the approval group,
and the answer decides whether the tool runs (it writes a file when it does) and what the model is
told next.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from extras import NEEDS_LLM_EXTRA

pytest.importorskip("pydantic_ai", reason=NEEDS_LLM_EXTRA)

import pytest_asyncio
from accessibility import serious_violations
from chat_harness import VIEWPORT, chat_server, log, option, send
from model_server import ModelServer, Reply
from playwright.async_api import Browser, Page, expect

pytestmark = pytest.mark.asyncio(loop_scope="session")

TOOLS = '''
from pathlib import Path

from pydantic_ai import Tool


def deploy(target: str) -> str:
    """Deploy the service to `target`."""
    Path("deployed.txt").write_text(target)
    return f"deployed to {target}"


TOOLS = [Tool(deploy, requires_approval=True)]
'''
ASKED = 'Approve deploy({"target":"staging"})?'


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("chat-llm-tools")
    (directory / "deploy_tools.py").write_text(TOOLS, encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def model_server() -> Iterator[ModelServer]:
    with ModelServer() as server:
        yield server


@pytest.fixture(scope="module")
def chat_url(model_server: ModelServer, workdir: Path) -> Iterator[str]:
    arguments = ["--agent", "llm", "--model", "openai:qwen2.5", "--base-url", model_server.base_url]
    with chat_server([*arguments, "--tools", "deploy_tools:TOOLS"], workdir) as url:
        yield url


@pytest_asyncio.fixture(loop_scope="session")
async def page(
    browser: Browser, chat_url: str, model_server: ModelServer, workdir: Path
) -> AsyncIterator[Page]:
    model_server.replies.clear()
    model_server.requests.clear()
    (workdir / "deployed.txt").unlink(missing_ok=True)
    context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(chat_url)
    await expect(log(page)).to_contain_text("You are chatting with qwen2.5")
    yield page
    await context.close()


def tool_result(model_server: ModelServer) -> dict[str, Any]:
    """The tool's message in the model's last request: what the model was told of the call."""
    (message,) = [m for m in model_server.requests[-1]["messages"] if m["role"] == "tool"]
    return message


def offered_tools(model_server: ModelServer) -> list[str]:
    return [tool["function"]["name"] for tool in model_server.requests[0]["tools"]]


async def test_approve_runs_the_modules_tool_and_the_model_hears_its_result(
    page: Page, model_server: ModelServer, workdir: Path
) -> None:
    arguments = {"target": "staging"}
    model_server.replies += [
        Reply(tool="deploy", arguments=arguments, call_id="call_deploy"),
        Reply(text=["Deployed to staging."]),
    ]
    await send(page, "Deploy the service")
    approve = option(page, ASKED, "Approve")
    await expect(approve).to_be_visible()
    group = page.get_by_role("group", name=ASKED)
    await expect(group).to_contain_text(json.dumps(arguments, indent=2).splitlines()[1].strip())
    assert "deploy" in offered_tools(model_server)
    assert not (workdir / "deployed.txt").exists()  # nothing runs before the person says so
    assert await serious_violations(page) == []
    await approve.click()
    await expect(log(page)).to_contain_text("Deployed to staging.")
    assert (workdir / "deployed.txt").read_text() == "staging"
    assert tool_result(model_server)["content"] == "deployed to staging"
    await expect(approve).to_have_attribute("aria-pressed", "true")


async def test_deny_with_a_reason_keeps_the_tool_from_running_and_tells_the_model_why(
    page: Page, model_server: ModelServer, workdir: Path
) -> None:
    model_server.replies += [
        Reply(tool="deploy", arguments={"target": "staging"}, call_id="call_deploy"),
        Reply(text=["Not deployed."]),
    ]
    await send(page, "Deploy the service")
    reason = page.get_by_role("group", name=ASKED).get_by_role("textbox", name="Reason")
    await reason.fill("Staging is frozen this week")
    await option(page, ASKED, "Deny").click()
    await expect(log(page)).to_contain_text("Not deployed.")
    assert not (workdir / "deployed.txt").exists()
    assert "Staging is frozen this week" in tool_result(model_server)["content"]
