"""The conformance table on the page: `provide-choice serve --no-browser` over stdio, spawned by
the SDK's client; the page's address taken from the call's progress notifications and opened in
Chromium, where the person clicks and types by accessible names. One server and one browser for
the whole module, a new browser context per case."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from cases import CASES
from conformance import Case, asked_on, assert_conforms, params, write_settings
from mcp import Client
from mcp_servers import call_on_page, structured
from playwright.async_api import Browser
from web_person import PagePerson

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("case", params(CASES, "web"))
async def test_the_page_gives_the_expected_response(
    case: Case, stdio_server: tuple[Path, Client], browser: Browser
) -> None:
    home, client = stdio_server
    write_settings(home, case)
    call, url = await call_on_page(client, asked_on(case, "web"))
    context = await browser.new_context()
    try:
        page = await context.new_page()
        await page.goto(url)
        await PagePerson(page, case).play()
        response = structured(await asyncio.wait_for(call, 15))
    finally:
        call.cancel()
        await context.close()
    assert_conforms(case, "web", response)
