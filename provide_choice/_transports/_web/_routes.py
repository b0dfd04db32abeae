"""The page's routes on the bridge, all under `/choice/`.

- `GET  /choice/<id>`             the page, with its script and style sheet inline; its
                                  Content-Security-Policy allows exactly those two (by hash), and
                                  no other script or style, inline or from anywhere
- `GET  /choice/assets/icon.svg`  the tab's icon (`icon-waiting.svg`: with a badge, while the
                                  question waits)
- `GET  /choice/<id>/state`       the page's state (the HTTP fallback polls it)
- `POST /choice/<id>/draft`       what is chosen and typed so far: `{selected_ids, custom_input,
                                  option_annotations, global_annotation}`
- `POST /choice/<id>/settings`    the changed settings only: `{"annotations": false}`
- `POST /choice/<id>/visibility`  `{"hidden_ids": [...]}`: options hidden from this question
- `POST /choice/<id>/answer`      an outcome, `{"kind": "answered", ...}` or `{"kind": "cancelled"}`
- `WS   /choice/<id>/live`        the same four messages as `{"type": "draft", "data": {...}}`; the
                                  server sends `{"type": "state", "state": {...}}` at once, after
                                  every change and every few seconds, `{"type": "saved", "about":
                                  "draft" | "answer"}`, and `{"type": "refused", "about": ...,
                                  "problems": [...]}` (with the `state` when the question ended)

A POST answers 200 `{"state": ...}`, 404 for an unknown id, 409 once the question ended, 413 for a
body over the size limit, 422 `{"problems": [...]}` for anything invalid (the question stays
pending), 503 while a shared store is away (nothing changed: send it again). The bridge's
middleware has already checked Host, Origin and the JSON content type. With a shared store, any
instance serves any question's routes (`QuestionPages.fetch`).

Every state is in the person's language: their setting, else the browser's `Accept-Language`,
which every request carries (the WebSocket's handshake too).
"""

from __future__ import annotations

import asyncio
from contextlib import suppress
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from present_choices._translation import accepted_languages, chosen
from provide_choice._bridge._local_http import (
    BODY_LIMIT,
    ICONS,
    SHARED_STYLE_SHEET,
    BodyRefused,
    asset,
    page_headers,
    read_json,
    refusal,
    route,
)
from provide_choice._contract._request import describe
from provide_choice._question import StoreUnavailable
from provide_choice._settings_file import load_settings
from provide_choice._transports._question_view._pages import HANDLERS, QuestionPages, apply
from provide_choice._transports._question_view._state import QuestionPage
from provide_choice._transports._web._page import away_html, missing_html, page_html, page_script

PREFIX = "/choice"
TICK_SECONDS = 5.0
ENDING_GRACE_SECONDS = 1.0
"""How long a live page's socket stays open after the ending it was sent: an answer on its way
then (another page of the question answered first) still gets its refusal."""
"""How often a live page gets the state even when nothing changed: its countdown resyncs."""


PAGE_HEADERS = page_headers(page_script(), asset(SHARED_STYLE_SHEET))
CONTENT_SECURITY_POLICY = PAGE_HEADERS["Content-Security-Policy"]
MessageKind = Literal["draft", "settings", "visibility", "answer"]


class LiveMessage(BaseModel):
    """One message from a page over the WebSocket."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: MessageKind
    data: Any


def install(app: Starlette, pages: QuestionPages) -> None:
    """Add the page's routes to the bridge's app."""

    @route(app, "GET", PREFIX + "/assets/{name}")
    async def asset_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ICONS:  # the page's script and style sheet are inline
            return Response(status_code=404)
        headers = PAGE_HEADERS | {"Cache-Control": "no-cache"}
        return Response(ICONS[name], media_type="image/svg+xml", headers=headers)

    @route(app, "GET", PREFIX + "/{question_id}")
    async def question_page(request: Request) -> Response:
        signal = _languages(request.headers)
        try:
            page = await pages.fetch(request.path_params["question_id"])
        except StoreUnavailable as away:
            # No question to say the person's setting: the settings file says it.
            translation = chosen(load_settings().language, signal)
            body = away_html(str(away), translation)
            return HTMLResponse(body, status_code=503, headers=PAGE_HEADERS)
        if page is None:
            # No question to say the person's setting: the settings file says it.
            translation = chosen(load_settings().language, signal)
            return HTMLResponse(missing_html(translation), status_code=404, headers=PAGE_HEADERS)
        return HTMLResponse(page_html(page, signal), headers=PAGE_HEADERS)

    @route(app, "GET", PREFIX + "/{question_id}/state")
    async def question_state(request: Request) -> Response:
        try:
            page = await pages.fetch(request.path_params["question_id"])
        except StoreUnavailable as away:
            return _problems(503, [str(away)])
        if page is None:
            return _not_found()
        state = page.state(_languages(request.headers))
        return JSONResponse({"state": state}, headers=PAGE_HEADERS)

    @route(app, "POST", PREFIX + "/{question_id}/{kind}")
    async def message(request: Request) -> Response:
        question_id, kind = request.path_params["question_id"], request.path_params["kind"]
        try:
            page = None if kind not in HANDLERS else await pages.fetch(question_id)
        except StoreUnavailable as away:
            return _problems(503, [str(away)])
        if page is None:
            return _not_found()
        try:
            data = await read_json(request)
        except BodyRefused as refusal:
            return _problems(refusal.status, [refusal.problem])
        status, reply = await apply(page, kind, data, _languages(request.headers))
        return JSONResponse(reply, status_code=status, headers=PAGE_HEADERS)

    async def live(websocket: WebSocket) -> None:
        try:
            page = await pages.fetch(websocket.path_params["question_id"])
        except StoreUnavailable:
            page = None  # the page falls back to HTTP, which says why
        if page is None:
            await websocket.close(code=4404)  # before accepting: the handshake gets 403
            return
        await websocket.accept()
        await _converse(websocket, page, _languages(websocket.headers))

    app.router.add_websocket_route(PREFIX + "/{question_id}/live", live)


def _languages(headers: Headers) -> list[str]:
    """The browser's languages, best first, as its `Accept-Language` says them."""
    return accepted_languages(headers.get("accept-language"))


async def _converse(websocket: WebSocket, page: QuestionPage, signal: list[str]) -> None:
    """Push the state while reading the page's messages; close once the question ended, but only
    after the reply to a message being handled then (an answer that ended it, or one refused
    because another page's came first: the page says which). The states are in the language of
    the person's setting, else `signal`'s."""
    sending, replying = asyncio.Lock(), asyncio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with sending:
            # A reply may come after the push closed the socket: the question ended meanwhile.
            if websocket.application_state == WebSocketState.CONNECTED:
                await websocket.send_json(message)

    async def push() -> None:
        async for state in page.updates(TICK_SECONDS, signal):
            await send({"type": "state", "state": state})
        # A message the page sent before it heard of the ending is still answered.
        await asyncio.sleep(ENDING_GRACE_SECONDS)
        async with replying, sending:
            await websocket.close()

    pusher = asyncio.create_task(push())
    try:
        while (received := await websocket.receive())["type"] != "websocket.disconnect":
            async with replying:
                reply = await _live_reply(page, received.get("text"), signal)
                if reply is not None:
                    await send(reply)
    finally:
        pusher.cancel()
        # The page may have gone while the push was sending: nothing is left to tell it.
        with suppress(asyncio.CancelledError, WebSocketDisconnect):
            await pusher


async def _live_reply(
    page: QuestionPage, text: str | None, signal: list[str]
) -> dict[str, Any] | None:
    """The reply to one WebSocket message: refused with the reasons, saved (a draft), or none
    (the state push that follows a change is the reply)."""
    if text is None:
        return {"type": "refused", "about": None, "problems": ["messages must be JSON text"]}
    if len(text.encode(errors="replace")) > BODY_LIMIT:
        return {
            "type": "refused",
            "about": None,
            "problems": [f"a message must be at most {BODY_LIMIT} bytes"],
        }
    try:
        message = LiveMessage.model_validate_json(text)
    except ValidationError as error:
        return {"type": "refused", "about": None, "problems": describe(error)}
    status, reply = await apply(page, message.type, message.data, signal)
    if status != 200:
        refused = {"type": "refused", "about": message.type, "problems": reply["problems"]}
        return refused | ({"state": reply["state"]} if "state" in reply else {})
    if message.type in ("draft", "answer"):
        return {"type": "saved", "about": message.type}
    return None  # the state push that follows the change is the reply


def _not_found() -> JSONResponse:
    return _problems(404, ["no question with this id is open here"])


def _problems(status: int, problems: list[str]) -> JSONResponse:
    return refusal(status, problems, PAGE_HEADERS)
