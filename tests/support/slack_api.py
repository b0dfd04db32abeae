"""A stand-in for Slack on 127.0.0.1, and the people who use it: what the tests' app talks to
instead of slack.com.

Two halves, as Slack has them. The Web API at `{url}{method}` (JSON or form bodies, the token as
`Authorization: Bearer`): `auth.test`, `apps.connections.open` (the app-level token only; it
answers a `ws://127.0.0.1:...` address), `chat.postMessage`, `chat.update`, `chat.postEphemeral`.
And Socket Mode: a WebSocket at that address that says `hello`, sends `interactive` envelopes
holding `block_actions` payloads as Slack sends them (`actions`, `state.values`, `user`,
`container.message_ts`, ...), reads the acks, and can send `disconnect` or drop the connection.
An envelope never acked fails the test that sent it (`unacked`, checked by the fixture).

It checks what Slack checks and a test relies on: the token and its kind, the blocks (their types,
the limits of their texts and elements, unique `action_id`s, `plain_text` where only it may stand),
a channel the bot may post in. Everything the app sent is recorded (`calls`, `messages`,
`ephemerals`); `Message.reading` reads its blocks as the person sees them (`slack_mrkdwn`). A
test plays a person through `Person`: a button pressed, a box ticked, an option picked, text typed
(kept in the person's client, as Slack keeps a message's input state, and sent with the next
action's `state.values`).

`stop()` closes both ports (connections refused: Slack unreachable; the WebSocket dropped) and
`start()` opens them again on the same ports. It is built as the stand-in Bot API is (a threaded
server, a record of calls, a person who queues what they do, waits that return as soon as what
they wait for happened).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl

from local_http import LocalHTTP
from slack_mrkdwn import Reading, decoded, read_mrkdwn
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server as SocketServer
from websockets.sync.server import ServerConnection, serve

BOT_TOKEN = "xoxb-1111111111-2222222222-StandInBotTokenForTheTests"
APP_TOKEN = "xapp-1-A0STANDIN-3333333333-0123456789abcdefStandInAppToken"
CHANNEL = "C0QUESTIONS"
"""The channel questions go to."""
USER = "U0ADA"
"""The person: Ada, who answers."""
OTHER_USER = "U0BOB"
"""Someone else in the channel."""
NAMES = {USER: "ada", OTHER_USER: "bob"}
BOT_USER = "U0BOT"
TEAM = "T0TEAM"
HEADER_LIMIT = 150
SECTION_LIMIT = 3000
BUTTON_LIMIT = 75
OPTION_LIMIT = 75
PLACEHOLDER_LIMIT = 150
ELEMENTS_LIMIT = 25
CHOICES_LIMIT = 10
BLOCKS_LIMIT = 50
BLOCK_TYPES = {"header", "section", "context", "actions", "input", "divider", "rich_text"}
ACTION_ELEMENTS = {"button", "checkboxes", "radio_buttons", "plain_text_input"}


class ApiError(Exception):
    """A refusal as the Web API words it: `{"ok": false, "error": ...}`."""

    def __init__(self, error: str, status: int = 200) -> None:
        super().__init__(error)
        self.error = error
        self.status = status


@dataclass
class Message:
    """A message of the app's in a channel, as the stand-in keeps it (edits applied)."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    edits: int = 0

    @property
    def reading(self) -> list[Reading]:
        """Each text the person reads, in order: the header, each section, each context line,
        each option of a list, each button (its text)."""
        return [reading for block in self.blocks for reading in _readings(block)]

    @property
    def plain(self) -> str:
        """The message as the person reads it: its texts, one per line."""
        return "\n".join(reading.text for reading in self.reading)

    @property
    def elements(self) -> list[dict[str, Any]]:
        """Its interactive elements (buttons, boxes, radio buttons, text inputs), in order."""
        found = []
        for block in self.blocks:
            if block["type"] == "actions":
                found += [
                    dict(element, block_id=block["block_id"]) for element in block["elements"]
                ]
            elif block["type"] == "input":
                found.append(dict(block["element"], block_id=block["block_id"]))
        return found

    @property
    def buttons(self) -> list[str]:
        """Its buttons' texts, in order ([] once it has none)."""
        buttons = [element for element in self.elements if element["type"] == "button"]
        return [decoded(button["text"]["text"]) for button in buttons]

    def element(self, kind: str) -> dict[str, Any]:
        (found,) = [element for element in self.elements if element["type"] == kind]
        return found

    def choices(self, kind: str) -> list[str]:
        """The options of its `checkboxes` or `radio_buttons`, as read."""
        return [
            read_mrkdwn(option["text"]["text"]).text for option in self.element(kind)["options"]
        ]

    def as_sent(self) -> dict[str, Any]:
        return {
            "type": "message",
            "user": BOT_USER,
            "bot_id": "B0BOT",
            "ts": self.ts,
            "text": self.text,
            "blocks": self.blocks,
        }


@dataclass
class Ephemeral:
    """A message only `user` sees."""

    channel: str
    user: str
    text: str


@dataclass
class Call:
    """One request the app made: the method, its parameters, and the kind of token it used."""

    method: str
    params: dict[str, Any]
    token: str
    at: float = field(default_factory=time.monotonic)


@dataclass
class Envelope:
    """One envelope sent over Socket Mode, and whether the app acked it."""

    envelope_id: str
    body: dict[str, Any]
    acked: bool = False


class StandInSlack:
    """Slack's Web API and Socket Mode for one app (`bot_token`, `app_token`), on 127.0.0.1."""

    def __init__(self, bot_token: str = BOT_TOKEN, app_token: str = APP_TOKEN) -> None:
        self.bot_token = bot_token
        self.app_token = app_token
        self.port = 0
        self.socket_port = 0
        self.calls: list[Call] = []
        self.messages: dict[str, Message] = {}
        """By `ts`."""
        self.ephemerals: list[Ephemeral] = []
        self.envelopes: list[Envelope] = []
        self.connections_opened = 0
        """WebSocket connections the app opened (after each, it was said `hello`)."""
        self.unreachable_channels: set[str] = set()
        self._socket: ServerConnection | None = None
        """The app's WebSocket connection now (the newest: after a `disconnect`, the old one
        lingers until the app closes it)."""
        self._sockets: set[ServerConnection] = set()
        self._ts = itertools.count(100)
        self._envelope_ids = itertools.count(1)
        self._changed = threading.Condition()
        self._http = LocalHTTP(self._serve)
        self._socket_server: SocketServer | None = None

    @property
    def url(self) -> str:
        """The Web API's base URL: what `PROVIDE_CHOICE_SLACK_API` names."""
        return f"http://127.0.0.1:{self.port}/api/"

    # Starting and stopping --------------------------------------------------------------------

    def start(self) -> StandInSlack:
        """Listen (on the ports it had before, after `stop`)."""
        self.port = self._http.open(self.port)
        self._socket_server = serve(self._talk, "127.0.0.1", self.socket_port)
        self.socket_port = self._socket_server.socket.getsockname()[1]
        threading.Thread(target=self._socket_server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        """Close both ports and every connection: Slack out of reach."""
        socket_server, self._socket_server = self._socket_server, None
        self.drop()  # first: the app may share this thread's event loop, and answer no close
        self._http.close()
        if socket_server is not None:
            socket_server.shutdown()
        with self._changed:
            self._changed.notify_all()

    def drop(self) -> None:
        """Cut the app's WebSocket connections, as a network blip does (no `disconnect`)."""
        for socket in list(self._sockets):
            with suppress(OSError):
                socket.socket.shutdown(2)

    def disconnect(self, reason: str = "refresh_requested") -> None:
        """Send Socket Mode's `disconnect` envelope: Slack asks the app to reconnect."""
        socket = self._socket
        assert socket is not None, "the app is not connected"
        socket.send(json.dumps({"type": "disconnect", "reason": reason, "debug_info": {}}))

    # What the app sent ------------------------------------------------------------------------

    def sent(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    def channel_messages(self, channel: str = CHANNEL) -> list[Message]:
        """The app's messages in the channel, oldest first, as they read now."""
        return [message for message in self.messages.values() if message.channel == channel]

    def ephemerals_for(self, user: str = USER) -> list[str]:
        return [ephemeral.text for ephemeral in self.ephemerals if ephemeral.user == user]

    def unacked(self) -> list[Envelope]:
        """The envelopes of actions the app never acked."""
        return [envelope for envelope in self.envelopes if not envelope.acked]

    def wait(self, condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
        """Return as soon as `condition()` holds; fail saying `what` was awaited."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                assert left > 0, f"the app never {what} (waited {seconds} s); it sent: {self.calls}"
                self._changed.wait(left)

    async def until(self, condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
        """`wait`, for a test in the event loop (which the app may share)."""
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, (
                f"the app never {what} (waited {seconds} s); it sent: {self.calls}"
            )
            await asyncio.sleep(0.01)

    async def connected(self, count: int = 1) -> None:
        """Wait until the app has opened `count` WebSocket connections (said `hello` to each)."""
        await self.until(
            lambda: self.connections_opened >= count and self._socket is not None,
            f"opened {count} Socket Mode connection(s)",
        )

    def message_with(self, text: str, channel: str = CHANNEL) -> Message:
        found = [message for message in self.channel_messages(channel) if text in message.plain]
        assert found, f"no message of the app's holds {text!r}: {self.channel_messages(channel)}"
        return found[-1]

    # What people do ---------------------------------------------------------------------------

    def person(self, user: str = USER) -> Person:
        return Person(self, user)

    def send_envelope(self, payload: dict[str, Any], kind: str = "interactive") -> Envelope:
        """Send `payload` over the app's connection now, in an envelope it must ack."""
        socket = self._socket
        assert socket is not None, "the app is not connected"
        envelope = Envelope(
            f"e{next(self._envelope_ids):04d}-stand-in",
            {"payload": payload, "type": kind, "accepts_response_payload": False},
        )
        with self._changed:
            self.envelopes.append(envelope)
        body = {"envelope_id": envelope.envelope_id, **envelope.body}
        socket.send(json.dumps(body))
        return envelope

    # Socket Mode ------------------------------------------------------------------------------

    def _talk(self, socket: ServerConnection) -> None:
        """One WebSocket connection of the app's: `hello`, then read its acks."""
        with self._changed:
            self._sockets.add(socket)
        try:
            hello = {
                "type": "hello",
                "num_connections": len(self._sockets),
                "debug_info": {"host": "stand-in", "approximate_connection_time": 3600},
                "connection_info": {"app_id": "A0STANDIN"},
            }
            socket.send(json.dumps(hello))
            with self._changed:
                self.connections_opened += 1
                self._socket = socket
                self._changed.notify_all()
            for data in socket:
                ack = json.loads(data)
                with self._changed:
                    for envelope in self.envelopes:
                        if envelope.envelope_id == ack.get("envelope_id"):
                            envelope.acked = True
                    self._changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            with self._changed:
                self._sockets.discard(socket)
                if self._socket is socket:
                    self._socket = None
                self._changed.notify_all()

    # The Web API ------------------------------------------------------------------------------

    def _serve(self, request: BaseHTTPRequestHandler) -> None:
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        status, answer = 200, {"ok": True}
        try:
            method = request.path.rsplit("/", 1)[-1].split("?")[0]
            params = _parameters(request.headers.get("Content-Type", ""), body)
            token = _token(request.headers.get("Authorization", ""), params)
            with self._changed:
                self.calls.append(Call(method, params, token))
                self._changed.notify_all()
            answer |= self._answer(method, params, token)
        except ApiError as error:
            status, answer = error.status, {"ok": False, "error": error.error}
        data = json.dumps(answer).encode()
        with suppress(OSError):
            request.send_response(status)
            request.send_header("Content-Type", "application/json; charset=utf-8")
            request.send_header("Content-Length", str(len(data)))
            request.end_headers()
            request.wfile.write(data)

    def _answer(self, method: str, params: dict[str, Any], token: str) -> dict[str, Any]:
        if token not in (self.bot_token, self.app_token):
            raise ApiError("invalid_auth" if token else "not_authed")
        if method == "apps.connections.open":
            if token != self.app_token:
                raise ApiError("not_allowed_token_type")
            return {"url": f"ws://127.0.0.1:{self.socket_port}/link/?ticket=stand-in"}
        if token != self.bot_token:
            raise ApiError("not_allowed_token_type")
        if method == "auth.test":
            return {"url": "https://stand-in.slack.com/", "team": "Stand-in", "user": "questions",
                    "team_id": TEAM, "user_id": BOT_USER, "bot_id": "B0BOT"}  # fmt: skip
        if method == "chat.postMessage":
            return self._post(params)
        if method == "chat.update":
            return self._update(params)
        if method == "chat.postEphemeral":
            return self._ephemeral(params)
        raise ApiError("unknown_method", 404)

    def _channel(self, params: dict[str, Any]) -> str:
        channel = str(params.get("channel") or "")
        if not channel:
            raise ApiError("channel_not_found")
        if channel in self.unreachable_channels:
            raise ApiError("not_in_channel")
        if channel.startswith("U"):  # a user: the app's direct messages with them
            return "D" + channel[1:]
        return channel

    def _post(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(params)
        blocks = _checked_blocks(params.get("blocks"))
        text = str(params.get("text") or "")
        if not text and not blocks:
            raise ApiError("no_text")
        with self._changed:
            ts = f"{int(time.time())}.{next(self._ts):06d}"
            message = Message(channel, ts, text, blocks)
            self.messages[ts] = message
            self._changed.notify_all()
        return {"channel": channel, "ts": ts, "message": message.as_sent()}

    def _update(self, params: dict[str, Any]) -> dict[str, Any]:
        message = self.messages.get(str(params.get("ts") or ""))
        if message is None or message.channel != params.get("channel"):
            raise ApiError("message_not_found")
        blocks = _checked_blocks(params.get("blocks"))
        with self._changed:
            message.text = str(params.get("text") or message.text)
            message.blocks = blocks
            message.edits += 1
            self._changed.notify_all()
        return {"channel": message.channel, "ts": message.ts, "text": message.text}

    def _ephemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(params)
        user = str(params.get("user") or "")
        if not user.startswith("U"):
            raise ApiError("user_not_in_channel")
        text = str(params.get("text") or "")
        if not text:
            raise ApiError("no_text")
        with self._changed:
            self.ephemerals.append(Ephemeral(channel, user, read_mrkdwn(text).text))
            self._changed.notify_all()
        return {"message_ts": f"{int(time.time())}.{next(self._ts):06d}"}


class Person:
    """Someone in the channel: what they do in a message goes to the app as Slack sends it. Like
    Slack's client, it keeps each message's input state (boxes ticked, an option picked, text
    typed) until the message changes, and sends it with every action as `state.values`."""

    def __init__(self, api: StandInSlack, user: str) -> None:
        self.api = api
        self.user = user
        self._state: dict[str, tuple[int, dict[str, dict[str, Any]]]] = {}
        """By message ts: the edit it was read at, and its state values."""

    def state(self, message: Message) -> dict[str, dict[str, Any]]:
        """The message's input state in this person's client (reset when the message changes)."""
        kept = self._state.get(message.ts)
        if kept is None or kept[0] != message.edits:
            kept = (message.edits, _initial_state(message))
            self._state[message.ts] = kept
        return kept[1]

    def presses(self, message: Message, button: str) -> Envelope:
        """Press the button whose text is `button`."""
        matching = [
            element
            for element in message.elements
            if element["type"] == "button" and decoded(element["text"]["text"]) == button
        ]
        assert len(matching) == 1, f"no single button {button!r} in {message.buttons}"
        element = matching[0]
        action = {
            "type": "button",
            "action_id": element["action_id"],
            "block_id": element["block_id"],
            "text": element["text"],
            "value": element.get("value", ""),
        }
        return self.acts(message, action)

    def ticks(self, message: Message, label: str) -> Envelope:
        """Tick (or untick) the box whose text reads `label`: Slack sends the boxes ticked now."""
        element = message.element("checkboxes")
        value = _option_value(element, label)
        values = self.state(message)[element["block_id"]][element["action_id"]]
        chosen = [option["value"] for option in values["selected_options"]]
        chosen = [v for v in chosen if v != value] if value in chosen else [*chosen, value]
        values["selected_options"] = [
            option for option in element["options"] if option["value"] in chosen
        ]
        action = {
            "type": "checkboxes",
            "action_id": element["action_id"],
            "block_id": element["block_id"],
            "selected_options": values["selected_options"],
        }
        return self.acts(message, action)

    def picks(self, message: Message, label: str) -> Envelope:
        """Pick the radio button whose text reads `label`."""
        element = message.element("radio_buttons")
        value = _option_value(element, label)
        (option,) = [option for option in element["options"] if option["value"] == value]
        self.state(message)[element["block_id"]][element["action_id"]]["selected_option"] = option
        action = {
            "type": "radio_buttons",
            "action_id": element["action_id"],
            "block_id": element["block_id"],
            "selected_option": option,
        }
        return self.acts(message, action)

    def types(self, message: Message, text: str) -> None:
        """Type `text` in the message's text field (Slack sends nothing until an action)."""
        element = message.element("plain_text_input")
        self.state(message)[element["block_id"]][element["action_id"]]["value"] = text

    def acts(self, message: Message, action: dict[str, Any]) -> Envelope:
        """Send a `block_actions` payload for `action` on `message`, as Slack sends it."""
        name = NAMES.get(self.user, self.user.lower())
        payload = {
            "type": "block_actions",
            "user": {"id": self.user, "username": name, "name": name, "team_id": TEAM},
            "api_app_id": "A0STANDIN",
            "token": "verification-token-unused",
            "container": {
                "type": "message",
                "message_ts": message.ts,
                "channel_id": message.channel,
                "is_ephemeral": False,
            },
            "trigger_id": "1.2.stand-in",
            "team": {"id": TEAM, "domain": "stand-in"},
            "channel": {"id": message.channel, "name": "questions"},
            "message": message.as_sent(),
            "state": {"values": json.loads(json.dumps(self.state(message)))},
            "response_url": "https://hooks.stand-in.invalid/actions/T0TEAM/1/stand-in",
            "actions": [{**action, "action_ts": f"{time.time():.6f}"}],
        }
        return self.api.send_envelope(payload)

    async def told(self, count: int, seconds: float = 10.0) -> str:
        """The `count`-th ephemeral message this person got (1 is the first), once it came."""
        api = self.api
        await api.until(
            lambda: len(api.ephemerals_for(self.user)) >= count, f"told {self.user}", seconds
        )
        return api.ephemerals_for(self.user)[count - 1]


def _option_value(element: dict[str, Any], label: str) -> str:
    matching = [
        option["value"] for option in element["options"] if _read(option["text"]).text == label
    ]
    assert len(matching) == 1, f"no single option {label!r} in {element['options']}"
    return str(matching[0])


def _initial_state(message: Message) -> dict[str, dict[str, Any]]:
    """A message's input state as Slack's client starts it: each element's initial value."""
    state: dict[str, dict[str, Any]] = {}
    for element in message.elements:
        kind = element["type"]
        if kind == "checkboxes":
            value: dict[str, Any] = {"selected_options": list(element.get("initial_options", []))}
        elif kind == "radio_buttons":
            value = {"selected_option": element.get("initial_option")}
        elif kind == "plain_text_input":
            value = {"value": element.get("initial_value")}
        else:
            continue
        state.setdefault(element["block_id"], {})[element["action_id"]] = {"type": kind, **value}
    return state


def _readings(block: dict[str, Any]) -> list[Reading]:
    kind = block["type"]
    if kind == "header":
        return [_read(block["text"])]
    if kind == "section":
        return [_read(block["text"])] if "text" in block else []
    if kind == "context":
        return [_read(element) for element in block["elements"]]
    if kind == "actions":
        readings = []
        for element in block["elements"]:
            if element["type"] == "button":
                readings.append(_read(element["text"]))
            for option in element.get("options", []):
                readings.append(_read(option["text"]))
                if "description" in option:
                    readings.append(_read(option["description"]))
        return readings
    if kind == "input":
        return [_read(block["label"])]
    return []


def _read(text: dict[str, Any]) -> Reading:
    if text["type"] == "plain_text":  # shown as it is, but for the three entities
        return Reading(decoded(text["text"]))
    return read_mrkdwn(text["text"], verbatim=bool(text.get("verbatim")))


def _parameters(content_type: str, body: bytes) -> dict[str, Any]:
    """A request's parameters as the Web API reads them: a JSON body, or a form whose `blocks`
    is JSON text."""
    if content_type.startswith("application/json"):
        data = json.loads(body or b"{}")
        if not isinstance(data, dict):
            raise ApiError("invalid_json")
        return data
    params: dict[str, Any] = dict(parse_qsl(body.decode(), keep_blank_values=True))
    if "blocks" in params:
        params["blocks"] = json.loads(params["blocks"])
    return params


def _token(authorization: str, params: dict[str, Any]) -> str:
    if authorization.startswith("Bearer "):
        return authorization.removeprefix("Bearer ").strip()
    return str(params.get("token") or "")


def _checked_blocks(blocks: Any) -> list[dict[str, Any]]:
    """Blocks as Slack accepts them, or its `invalid_blocks`."""
    if blocks is None:
        return []
    if isinstance(blocks, str):
        blocks = json.loads(blocks)
    if not isinstance(blocks, list) or len(blocks) > BLOCKS_LIMIT:
        raise ApiError("invalid_blocks")
    action_ids: set[str] = set()
    block_ids: set[str] = set()
    for block in blocks:
        kind = block.get("type")
        if kind not in BLOCK_TYPES:
            raise ApiError("invalid_blocks")
        if "block_id" in block:
            if block["block_id"] in block_ids:
                raise ApiError("invalid_blocks")
            block_ids.add(block["block_id"])
        if kind == "header":
            _check_text(block.get("text"), HEADER_LIMIT, plain=True)
        elif kind == "section":
            _check_text(block.get("text"), SECTION_LIMIT)
        elif kind == "context":
            for element in block.get("elements", []):
                _check_text(element, SECTION_LIMIT)
        elif kind == "actions":
            elements = block.get("elements", [])
            if not 1 <= len(elements) <= ELEMENTS_LIMIT:
                raise ApiError("invalid_blocks")
            for element in elements:
                _check_element(element, action_ids)
        elif kind == "input":
            _check_text(block.get("label"), 2000, plain=True)
            _check_element(block.get("element") or {}, action_ids)
    return list(blocks)


def _check_element(element: dict[str, Any], action_ids: set[str]) -> None:
    kind = element.get("type")
    if kind not in ACTION_ELEMENTS:
        raise ApiError("invalid_blocks")
    action_id = element.get("action_id")
    if not action_id or action_id in action_ids or len(action_id) > 255:
        raise ApiError("invalid_blocks")
    action_ids.add(action_id)
    if kind == "button":
        _check_text(element.get("text"), BUTTON_LIMIT, plain=True)
        if len(str(element.get("value", ""))) > 2000:
            raise ApiError("invalid_blocks")
    elif kind in ("checkboxes", "radio_buttons"):
        options = element.get("options", [])
        if not 1 <= len(options) <= CHOICES_LIMIT:
            raise ApiError("invalid_blocks")
        for option in options:
            _check_text(option.get("text"), OPTION_LIMIT)
            if "description" in option:
                _check_text(option["description"], OPTION_LIMIT)
        values = [option.get("value") for option in options]
        initial = element.get("initial_options", [])
        if "initial_option" in element:
            initial = [element["initial_option"]]
        if any(option not in options for option in initial) or len(set(values)) < len(values):
            raise ApiError("invalid_blocks")
    elif kind == "plain_text_input" and "placeholder" in element:
        _check_text(element["placeholder"], PLACEHOLDER_LIMIT, plain=True)


def _check_text(text: Any, limit: int, *, plain: bool = False) -> None:
    if not isinstance(text, dict) or text.get("type") not in ("plain_text", "mrkdwn"):
        raise ApiError("invalid_blocks")
    if plain and text["type"] != "plain_text":
        raise ApiError("invalid_blocks")
    value = text.get("text")
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise ApiError("invalid_blocks")


@contextmanager
def stand_in_slack() -> Iterator[StandInSlack]:
    """A stand-in Slack, listening, for the length of the block."""
    api = StandInSlack().start()
    try:
        yield api
    finally:
        api.stop()


def slack_environment(api: StandInSlack, channel: str = CHANNEL) -> dict[str, str]:
    """The variables that point the plug-in at the stand-in, asking in `channel`."""
    return {
        "PROVIDE_CHOICE_SLACK_BOT_TOKEN": api.bot_token,
        "PROVIDE_CHOICE_SLACK_APP_TOKEN": api.app_token,
        "PROVIDE_CHOICE_SLACK_CHANNEL": channel,
        "PROVIDE_CHOICE_SLACK_API": api.url,
    }
