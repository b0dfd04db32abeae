"""A question as the person sees it on the two surfaces that draw it with the same parts: the page
the browser opens (`"transport": "web"`), and the provide_choice app a host draws in the
conversation (`"transport": "app"`, the test host of app_host.py). A test asks, then acts on `view`
(the page, or the app's frame: both find by role, label and text) and `keyboard`, the same way on
both; what honestly differs between the two is said here, once, not in the tests.

The server is one whose client declares MCP Apps, so both surfaces can be asked through it.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from accessibility import violations
from app_host import AppHost
from mcp import Client
from mcp_servers import call_on_page
from mcp_types import CallToolResult
from playwright.async_api import Browser, Frame, Keyboard, Page
from screenshots import screenshot_path


class QuestionView(ABC):
    """One browser context showing the questions a test asks on one surface (`OnPage`, `InApp`);
    create with the subclass's `opened`. Every uncaught error of the page or the app fails the
    test once it ends."""

    transport = ""
    """The surface's `transport` in a request and its response."""
    sent = ""
    """The heading once the answer is sent."""
    saved = ""
    """What the question says once a draft is saved."""

    def __init__(self, page: Page, client: Client) -> None:
        self.page = page
        self.client = client
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    @property
    @abstractmethod
    def view(self) -> Page | Frame:
        """Where the question is drawn: the page, or the app's frame."""

    @property
    def keyboard(self) -> Keyboard:
        """The keyboard (the page's: keys go to what has the focus, in the app's frame too)."""
        return self.page.keyboard

    @abstractmethod
    async def ask(self, request: dict[str, Any]) -> asyncio.Task[CallToolResult]:
        """Make the call on this surface, and draw its question: the call, still waiting."""

    @abstractmethod
    async def poll(self, session_id: str) -> CallToolResult:
        """The agent's next call for a question that returned `pending`."""

    @abstractmethod
    async def keep_screenshot(self, name: str) -> None:
        """Take the documentation's screenshot `name` of the question as it is now, where the documentation shows
        this surface (see screenshots.py)."""

    async def accessibility_problems(self) -> list[str]:
        """What axe-core finds wrong with the question as it is now, one line each."""
        return await violations(self.view)

    def assert_no_errors(self) -> None:
        assert self.errors == [], f"uncaught errors ({self.transport}): {self.errors}"


class OnPage(QuestionView):
    """The page: its address comes from the call's progress notifications (the server runs with
    `--no-browser`), and the test's browser opens it."""

    transport = "web"
    sent = "Answer sent, you can close this tab"
    saved = "Saved: closing this tab loses nothing."

    @classmethod
    @asynccontextmanager
    async def opened(
        cls, browser: Browser, client: Client, viewport: dict[str, int]
    ) -> AsyncIterator[OnPage]:
        context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        try:
            opened = cls(await context.new_page(), client)
            yield opened
        finally:
            await context.close()
        opened.assert_no_errors()

    @property
    def view(self) -> Page:
        return self.page

    async def ask(self, request: dict[str, Any]) -> asyncio.Task[CallToolResult]:
        call, url = await call_on_page(self.client, request | {"transport": self.transport})
        await self.page.goto(url)
        return call

    async def poll(self, session_id: str) -> CallToolResult:
        return await self.client.call_tool("provide_choice", {"session_id": session_id})

    async def keep_screenshot(self, name: str) -> None:
        await self.page.screenshot(path=screenshot_path(f"page-{name}.png"), full_page=True)


class InApp(QuestionView):
    """The app, drawn by the test host when the call is made, as a host does when the model calls
    the tool; a poll draws it again, from the poll's arguments."""

    transport = "app"
    sent = "Answer sent"
    saved = "Saved: if this view closes, your answers so far are kept."

    def __init__(self, host: AppHost) -> None:
        super().__init__(host.page, host.client)
        self.host = host

    @classmethod
    @asynccontextmanager
    async def opened(
        cls, browser: Browser, client: Client, viewport: dict[str, int], bundle: str
    ) -> AsyncIterator[InApp]:
        async with AppHost.opened(browser, client, bundle, viewport=viewport) as host:
            # A host draws the frame no wider than the conversation: on a narrow screen, narrower
            # than the test host's 640 px.
            await host.page.add_style_tag(content="iframe { max-width: 100%; }")
            opened = cls(host)
            yield opened
        opened.assert_no_errors()

    @property
    def view(self) -> Frame:
        return self.host.frame

    async def ask(self, request: dict[str, Any]) -> asyncio.Task[CallToolResult]:
        call = await self.host.show("provide_choice", request | {"transport": self.transport})
        assert call is not None
        return call

    async def poll(self, session_id: str) -> CallToolResult:
        call = await self.host.show("provide_choice", {"session_id": session_id})
        assert call is not None
        return await call

    async def keep_screenshot(self, name: str) -> None:
        """None: the documentation shows these questions on the page (the app draws them with the same
        parts)."""
