"""A host that renders MCP Apps, for the tests: the official host side in Chromium, our server
behind the MCP SDK's own Python client.

The page is `app_host/host.js` bundled with esbuild (the `AppBridge` and `PostMessageTransport` of
@modelcontextprotocol/ext-apps, installed by the Makefile's node_modules target). It draws one app
in a sandboxed frame served from an origin of its own, with the content security policy a host
applies to an app that declares no outside address, and records what the app sends. What the app
calls (`tools/call`) goes to the server through the client, which declares the extension
(`mcp.client.extension.advertise`), as a host that renders apps does. Every request the page or
the app makes is recorded: an app that fetches anything is caught.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.extension import ClientExtension, advertise
from mcp.server.apps import APP_MIME_TYPE, EXTENSION_ID
from mcp_types import CallToolResult, TextResourceContents
from playwright.async_api import Browser, Frame, Page, Route

ROOT = Path(__file__).resolve().parents[2]
HOST_SOURCE = Path(__file__).parent / "app_host" / "host.js"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"

HOST_ORIGIN = "http://conversation.test"
VIEW_ORIGIN = "http://app-sandbox.test"
"""The host page and the app's frame, on two origins (as real hosts keep apps off their own)."""

APP_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; media-src 'self' data:; font-src 'self' data:; connect-src 'none'"
)
"""The policy the MCP Apps specification gives an app whose `_meta.ui.csp` names no domain."""

HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<style>
  body {{ margin: 0; padding: 16px; font: 16px system-ui, sans-serif; }}
  iframe {{ display: block; width: 640px; height: 120px; border: 0; }}
</style></head>
<body><main id="conversation" aria-label="Conversation"></main>
<script>{bundle}</script></body></html>"""


class HostUnavailable(Exception):
    """The test host cannot be built here (no Node tools): the reason, for a skip."""


def build_host_bundle(directory: Path) -> str:
    """The test host's script for the browser, bundled with esbuild (in `directory`)."""
    if shutil.which("node") is None or not ESBUILD.exists():
        raise HostUnavailable(
            "the MCP Apps test host needs Node and esbuild: run `make node_modules/.installed`"
        )
    bundle = directory / "app-host.js"
    subprocess.run(
        [ESBUILD, str(HOST_SOURCE), "--bundle", "--minify", "--format=iife", f"--outfile={bundle}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return bundle.read_text(encoding="utf-8")


def apps_extension() -> ClientExtension:
    """What a host that renders apps declares to the server."""
    return advertise(EXTENSION_ID, {"mimeTypes": [APP_MIME_TYPE]})


class AppHost:
    """One conversation in a Chromium page, showing one app at a time. Create with `opened`."""

    def __init__(self, page: Page, client: Client) -> None:
        self.page = page
        self.client = client
        self.requests: list[str] = []
        self.calls: list[asyncio.Task[CallToolResult]] = []
        self._views: dict[str, str] = {}

    @classmethod
    @asynccontextmanager
    async def opened(
        cls, browser: Browser, client: Client, bundle: str, **context_options: Any
    ) -> AsyncIterator[AppHost]:
        context = await browser.new_context(**context_options)
        try:
            page = await context.new_page()
            host = cls(page, client)
            page.on("request", lambda request: host.requests.append(request.url))
            page_html = HOST_PAGE.format(bundle=bundle)
            await context.route(f"{HOST_ORIGIN}/**", _fulfil(page_html, "text/html"))
            await context.route(f"{VIEW_ORIGIN}/**", host._serve_view)
            await page.expose_function("proxyToolCall", host._call_for_app)
            await page.goto(f"{HOST_ORIGIN}/")
            yield host
        finally:
            for call in host.calls:
                call.cancel()
            await context.close()

    @property
    def frame(self) -> Frame:
        """The app's frame."""
        frames = [frame for frame in self.page.frames if frame.url.startswith(VIEW_ORIGIN)]
        assert frames, "no app is drawn"
        return frames[-1]

    async def view_of(self, tool: str) -> str:
        """The HTML of a tool's view, read from the `ui://` address the tool names."""
        listed = {item.name: item for item in (await self.client.list_tools()).tools}
        meta = listed[tool].meta or {}
        uri = meta["ui"]["resourceUri"]
        assert uri.startswith("ui://"), uri
        contents = (await self.client.read_resource(uri)).contents
        assert len(contents) == 1
        view = contents[0]
        assert isinstance(view, TextResourceContents)
        assert view.mime_type == APP_MIME_TYPE
        return view.text

    async def show(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        theme: str = "light",
        tool_info: bool = True,
        model_context: bool = True,
        call: bool = True,
        locale: str = "en-US",
    ) -> asyncio.Task[CallToolResult] | None:
        """Make the call and draw `tool`'s view at once, as a host does when the model calls a
        tool, and hand the view the call's arguments once it has initialized; the call's result
        goes to the view when it comes (the returned task). `tool_info` puts the call in the host
        context (`toolInfo`); `call=False` draws and hands over the arguments only; `locale` is the
        host's language."""
        html = await self.view_of(tool)
        drawn = asyncio.Event()
        task = None
        if call:
            task = asyncio.create_task(self._call_and_report(tool, arguments, drawn))
            self.calls.append(task)
        info = None
        if tool_info:
            listed = {item.name: item for item in (await self.client.list_tools()).tools}
            definition = listed[tool].model_dump(mode="json", by_alias=True, exclude_none=True)
            info = {"tool": definition}  # no `id`: the SDK's client does not tell its own
        options = {
            "theme": theme,
            "toolInfo": info,
            "modelContext": model_context,
            "toolInput": arguments,
            "locale": locale,
        }
        await self.page.evaluate(
            "([url, options]) => appHost.mount(url, options)", [self.serve(html), options]
        )
        drawn.set()
        return task

    def serve(self, html: str) -> str:
        """The address at which the app's origin serves `html` (under the apps' policy)."""
        path = f"/{len(self._views)}.html"
        self._views[path] = html
        return f"{VIEW_ORIGIN}{path}"

    async def send_tool_input(self, arguments: dict[str, Any]) -> None:
        await self.page.evaluate("(args) => appHost.sendToolInput(args)", arguments)

    async def send_tool_result(self, result: CallToolResult) -> None:
        await self.page.evaluate("(result) => appHost.sendToolResult(result)", _wire(result))

    async def send_tool_cancelled(self, reason: str | None = None) -> None:
        await self.page.evaluate("(reason) => appHost.sendToolCancelled(reason)", reason)

    async def set_theme(self, theme: str) -> None:
        await self.page.evaluate("(theme) => appHost.setTheme(theme)", theme)

    async def refuse_messages(self, refuse: bool = True) -> None:
        """Answer the app's next `ui/message` requests with `isError`, as a host that did not take
        the message."""
        await self.page.evaluate("(refuse) => appHost.refuseMessages(refuse)", refuse)

    async def fail_tool_calls(self, count: int) -> None:
        """Fail the app's next `count` `tools/call` requests, as a host whose connection to the
        server dropped (a JSON-RPC error, not a tool result)."""
        await self.page.evaluate("(count) => appHost.failToolCalls(count)", count)

    async def recorded(self, what: str) -> Any:
        """What the app sent so far: `messages` (`ui/message` params), `modelContext`, `sizes`
        (heights), `toolCalls`."""
        return await self.page.evaluate("(what) => appHost.record[what]", what)

    async def until_recorded(self, what: str, count: int, seconds: float = 5.0) -> None:
        """Return once the app has sent `count` of `what` (see `recorded`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while len(await self.recorded(what)) < count:
            assert loop.time() < deadline, f"the host did not get {count} {what} in {seconds} s"
            await asyncio.sleep(0.02)

    async def fitted_height(self, seconds: float = 5.0) -> int:
        """The frame's height, once it is the height the app's content needs (the app reported it
        and the host sized the frame): a frame that never fits fails."""
        needed_js = """() => {
            const root = document.documentElement;
            const kept = root.style.height;
            root.style.height = "max-content";
            const needed = Math.ceil(root.getBoundingClientRect().height);
            root.style.height = kept;
            return needed;
        }"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            needed = await self.frame.evaluate(needed_js)
            height = await self.page.locator("iframe").evaluate("node => node.offsetHeight")
            if height == needed:
                return int(needed)
            assert loop.time() < deadline, f"the frame is {height}px, its app needs {needed}px"
            await asyncio.sleep(0.05)

    def foreign_requests(self) -> list[str]:
        """Requests beyond the host page and the app documents it serves."""
        own = {f"{HOST_ORIGIN}/"} | {f"{VIEW_ORIGIN}{path}" for path in self._views}
        return [url for url in self.requests if url not in own]

    async def _serve_view(self, route: Route) -> None:
        path = "/" + route.request.url.removeprefix(VIEW_ORIGIN).lstrip("/")
        html = self._views.get(path)
        if html is None:
            await route.fulfill(status=404, body="")
            return
        await route.fulfill(
            status=200,
            body=html,
            headers={"Content-Type": "text/html", "Content-Security-Policy": APP_CSP},
        )

    async def _call_and_report(
        self, tool: str, arguments: dict[str, Any], drawn: asyncio.Event
    ) -> CallToolResult:
        """The call; its result goes to the view once the view is there (a host keeps it till then)."""
        result = await self.client.call_tool(tool, arguments)
        await drawn.wait()
        with suppress(Exception):  # the page may be gone when a test ends first
            await self.send_tool_result(result)
        return result

    async def _call_for_app(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The app's `tools/call`, as a host proxies it: only to a tool the app may see."""
        listed = {item.name: item for item in (await self.client.list_tools()).tools}
        ui = (listed[name].meta or {}).get("ui", {}) if name in listed else {}
        if name not in listed or "app" not in ui.get("visibility", ["model", "app"]):
            raise PermissionError(f"the app may not call {name!r}")
        return _wire(await self.client.call_tool(name, arguments))


def _wire(result: CallToolResult) -> dict[str, Any]:
    """A result as it travels in JSON-RPC."""
    wire: dict[str, Any] = json.loads(
        result.model_dump_json(by_alias=True, exclude_none=True, exclude={"result_type"})
    )
    return wire


def _fulfil(body: str, content_type: str) -> Any:
    async def fulfil(route: Route) -> None:
        await route.fulfill(status=200, body=body, headers={"Content-Type": content_type})

    return fulfil
