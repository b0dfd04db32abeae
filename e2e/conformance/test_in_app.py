"""The conformance table in the provide_choice app: `provide-choice serve --no-browser` over stdio,
spawned by the SDK's client declaring MCP Apps; the app drawn by the test host (the official host
side of MCP Apps) from the call's arguments, where the person clicks and types by accessible names,
as on the page. One server, one browser and one host page for the whole module."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from app_host import AppHost, HostUnavailable, apps_extension, build_host_bundle
from cases import CASES
from conformance import Case, asked_on, assert_conforms, params, write_settings
from mcp_servers import connected, held, structured
from page_person import PagePerson
from playwright.async_api import Browser

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def host(
    tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> AsyncIterator[tuple[Path, AppHost]]:
    """The settings home of a stdio server whose client draws apps, and the host drawing them."""
    try:
        bundle = build_host_bundle(tmp_path_factory.mktemp("app-host"))
    except HostUnavailable as missing:
        pytest.skip(str(missing))
    home = tmp_path_factory.mktemp("conformance-app")
    connection = connected("stdio", home, extensions=[apps_extension()])
    async with held(connection) as client, AppHost.opened(browser, client, bundle) as opened:
        yield home, opened


@pytest.mark.parametrize("case", params(CASES, "app"))
async def test_the_app_gives_the_expected_response(case: Case, host: tuple[Path, AppHost]) -> None:
    home, app_host = host
    write_settings(home, case)
    call = await app_host.show("provide_choice", asked_on(case, "app"))
    assert call is not None
    try:
        await PagePerson(app_host.frame, case).play()
        response = structured(await asyncio.wait_for(call, 15))
    finally:
        call.cancel()
    assert_conforms(case, "app", response)
