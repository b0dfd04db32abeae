"""The conformance table in the provide_choice app: `provide-choice serve --no-browser` over stdio,
spawned by the SDK's client declaring MCP Apps; the app drawn by the test host (the official host
side of MCP Apps) from the call's arguments, where the person clicks and types by accessible names,
as on the page. One server and one browser for the whole module; a host page for each case."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from app_host import AppHost, HostUnavailable, apps_extension, build_host_bundle
from cases import CASES
from conformance import Case, asked_on, assert_conforms, params, write_settings
from mcp import Client
from mcp_servers import connected, held, structured
from playwright.async_api import Browser
from web_person import PagePerson

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[tuple[Path, Client, str]]:
    """The settings home of a stdio server whose client draws apps, its client, and the host's
    bundle: one server for the module."""
    try:
        bundle = build_host_bundle(tmp_path_factory.mktemp("app-host"))
    except HostUnavailable as missing:
        pytest.skip(str(missing))
    home = tmp_path_factory.mktemp("conformance-app")
    async with held(connected("stdio", home, extensions=[apps_extension()])) as client:
        yield home, client, bundle


@pytest_asyncio.fixture(loop_scope="session")
async def host(
    served: tuple[Path, Client, str], browser: Browser
) -> AsyncIterator[tuple[Path, AppHost]]:
    """A conversation of its own for each case, as the page gets a tab of its own: a case never
    meets the frames, bridges and polls of the cases before it."""
    home, client, bundle = served
    async with AppHost.opened(browser, client, bundle) as opened:
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
