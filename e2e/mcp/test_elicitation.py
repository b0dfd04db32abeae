"""The question in the client's own dialog, end to end: `provide-choice serve` spawned over stdio or
started with `--http` (no terminal), the MCP SDK's client with an `elicitation_callback`, on the
2025-11-25 revision and on 2026-07-28. The page for URL mode is answered in Chromium."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp_servers import connected, until
from playwright.async_api import Browser, expect

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONNECTIONS = [
    pytest.param(transport, mode, id=f"{transport}-{mode}")
    for transport in ("stdio", "http")
    for mode in ("legacy", "2026-07-28")
]
OPTIONS = [
    {"id": "red", "label": "Red", "description": "warm", "recommended": True},
    {"id": "blue", "label": "Blue"},
]


def question(mode: str, **changes: Any) -> dict[str, Any]:
    request: dict[str, Any] = {
        "title": "Colour",
        "prompt": "Which colour should the banner be?",
        "selection_mode": mode,
        "options": OPTIONS,
    }
    if mode == "text_input":
        del request["options"]
    return request | changes


class Dialog:
    """The client's dialog: each form gets the next scripted answer; URL offers are accepted and
    their pages kept for the test to answer."""

    def __init__(self) -> None:
        self.answers: list[Any] = []
        self.forms: list[types.ElicitRequestFormParams] = []
        self.pages: list[types.ElicitRequestURLParams] = []
        self.completed: list[str] = []
        self.cancelled = 0

    async def __call__(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult:
        if isinstance(params, types.ElicitRequestURLParams):
            self.pages.append(params)
            return types.ElicitResult(action="accept")
        self.forms.append(params)
        answer = self.answers.pop(0)
        if answer is SLOW:  # the person takes longer than the question's deadline
            try:
                await asyncio.sleep(2.5)
            except asyncio.CancelledError:  # the server cancelled its open request
                self.cancelled += 1
                raise
            return accept(choice="blue")
        return answer

    async def notification(self, message: Any) -> None:
        if isinstance(message, types.ElicitCompleteNotification):
            self.completed.append(message.params.elicitation_id)


SLOW = object()


def accept(**content: Any) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content=content)


async def ask(client: Client, dialog: Dialog, request: dict[str, Any], *answers: Any) -> Any:
    dialog.answers = list(answers)
    result = await client.call_tool("provide_choice", request)
    assert not result.is_error, result.content
    assert dialog.answers == [], "every scripted answer was asked for"
    return result.structured_content


@pytest.mark.parametrize(("transport", "mode"), CONNECTIONS)
async def test_the_clients_dialog_asks_every_mode_and_reports_every_ending(
    transport: str, mode: str, tmp_path: Path
) -> None:
    dialog = Dialog()
    async with connected(
        transport, tmp_path, mode=mode, elicitation_callback=dialog, read_timeout_seconds=60
    ) as client:
        single = await ask(client, dialog, question("single"), accept(choice="blue"))
        multi = await ask(client, dialog, question("multi"), accept(choices=["blue", "red"]))
        text = await ask(client, dialog, question("text_input"), accept(answer="Teal"))
        hybrid = await ask(client, dialog, question("hybrid"), accept(own_answer="Teal"))
        declined = await ask(
            client, dialog, question("single"), types.ElicitResult(action="decline")
        )
        dismissed = await ask(
            client, dialog, question("single"), types.ElicitResult(action="cancel")
        )
        refitted = await ask(
            client, dialog, question("single"), accept(choice="green"), accept(choice="red")
        )
        late = await ask(client, dialog, question("single", timeout_seconds=1), SLOW)
    assert [single["selection"]["selected_ids"], multi["selection"]["selected_ids"]] == [
        ["blue"],
        ["red", "blue"],
    ]
    assert text["selection"]["custom_input"] == hybrid["selection"]["custom_input"] == "Teal"
    assert {response["selection"]["transport"] for response in (single, multi, text, hybrid)} == {
        "elicitation"
    }
    assert declined["action_status"] == dismissed["action_status"] == "cancelled"
    assert "declined" in declined["selection"]["summary"]
    assert "dismissed" in dismissed["selection"]["summary"]
    assert refitted["selection"]["selected_ids"] == ["red"]
    assert "'green' is not one of the options" in dialog.forms[-2].message
    assert late["action_status"] == "timeout"
    # On 2025-11-25 the deadline cancels the open dialog request; on 2026-07-28 the dialog is the
    # client's own round, which holds until the person answers (then the call says `timeout`).
    assert dialog.cancelled == (1 if mode == "legacy" else 0)


@pytest.mark.parametrize(("transport", "mode"), CONNECTIONS)
async def test_the_page_for_a_client_without_a_dialog_or_for_a_person_who_prefers_it(
    transport: str, mode: str, tmp_path: Path, browser: Browser
) -> None:
    """URL mode: the client is asked to open the page (and hears when it ended on 2025-11-25);
    the person answers it in Chromium."""
    (tmp_path / "settings.json").write_text(json.dumps({"transport": "web"}))
    dialog = Dialog()
    async with connected(
        transport,
        tmp_path,
        mode=mode,
        elicitation_callback=dialog,
        message_handler=dialog.notification,
        read_timeout_seconds=60,
    ) as client:
        context = await browser.new_context()
        page = await context.new_page()
        call = asyncio.create_task(client.call_tool("provide_choice", question("single")))
        await until(lambda: bool(dialog.pages), "the client is asked to open the page")
        await page.goto(dialog.pages[0].url)
        await page.get_by_role("radio", name="Blue").click()
        await expect(page.get_by_role("heading", name="Answer sent")).to_be_visible()
        result = await asyncio.wait_for(call, 30)
        await context.close()
    response = result.structured_content
    assert response is not None
    assert response["selection"]["selected_ids"] == ["blue"]
    assert response["selection"]["transport"] == "web"
    assert response["selection"]["url"] == dialog.pages[0].url
    assert dialog.forms == []  # the person's preference for the page won over the dialog
    if mode == "legacy":
        await until(lambda: bool(dialog.completed), "the client hears the question ended")
        assert dialog.completed == [dialog.pages[0].elicitation_id]


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_client_that_declared_no_elicitation_gets_the_page_and_the_summary_says_so(
    transport: str, tmp_path: Path
) -> None:
    async with connected(transport, tmp_path, read_timeout_seconds=60) as client:
        request = question("single", transport="elicitation", timeout_seconds=1)
        result = await client.call_tool("provide_choice", request)
    response = result.structured_content
    assert response is not None
    assert response["selection"]["transport"] == "web"
    assert response["selection"]["summary"].endswith(
        "(Asked in the browser: this MCP client has no dialog for questions (it declared no "
        "form elicitation).)"
    )
