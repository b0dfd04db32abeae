"""A stand-in for Telegram's Bot API on 127.0.0.1, and the person who uses it: what the tests'
bot talks to instead of api.telegram.org.

It serves the five methods the plug-in calls, at `{url}/bot{token}/{method}` as the Bot API does,
with JSON, form or query-string parameters: `getUpdates` (a long poll: it answers at once when an
update is queued, else when its `timeout` passes), `sendMessage`, `editMessageText`,
`editMessageReplyMarkup` and `answerCallbackQuery`. It checks what Telegram checks and a test
relies on: the token, the HTML subset of `parse_mode: "HTML"` (a tag outside it, or a stray `<` or
`&`, is Telegram's "can't parse entities"), `callback_data` within 64 bytes, an edit that changes
nothing ("message is not modified"). Everything the bot sent is recorded (`calls`, `messages`),
and a test plays the person through `Person`: `/start`, a button pressed, a reply, from the linked
chat or another.

`stop()` closes its port (connections refused: Telegram unreachable) and `start()` opens it again
on the same port. The shape (a threaded server, a record of calls, a person who queues what they
do, waits that return as soon as what they wait for happened) is the one a stand-in for another
chat service follows.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from local_http import LocalHTTP

TOKEN = "123456789:AAE-stand-in-token-for-the-tests_0123456"
"""A token shaped as BotFather's: the bot's id, a colon, a secret."""
CHAT_ID = 424242
"""The linked chat: the person's private chat with the bot."""
OTHER_CHAT_ID = 777001
"""A chat that is not linked: someone else who found the bot."""
CALLBACK_DATA_LIMIT = 64
TEXT_LIMIT = 4096
LONG_POLL_LIMIT = 50.0
"""The longest `getUpdates` timeout it honours (Telegram's own limit)."""
ALLOWED_TAGS = {
    "b": (),
    "strong": (),
    "i": (),
    "em": (),
    "u": (),
    "ins": (),
    "s": (),
    "strike": (),
    "del": (),
    "code": ("class",),
    "pre": (),
    "a": ("href",),
    "blockquote": ("expandable",),
    "tg-spoiler": (),
    "span": ("class",),
}
"""The tags (and their attributes) Telegram's HTML parse mode reads; any other is refused."""
ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


class ApiError(Exception):
    """A refusal as the Bot API words it: `{"ok": false, "error_code", "description"}`."""

    def __init__(self, code: int, description: str) -> None:
        super().__init__(description)
        self.code = code
        self.description = description


@dataclass
class Message:
    """A message in a chat, as the stand-in keeps it: the bot's (with its buttons) or the
    person's."""

    message_id: int
    chat_id: int
    text: str
    """As sent (HTML, for the bot's messages with `parse_mode: "HTML"`)."""
    from_bot: bool
    parse_mode: str | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: int | None = None
    edits: int = 0

    @property
    def plain(self) -> str:
        """The text as the person reads it: HTML tags dropped, entities read."""
        return plain_text(self.text) if self.parse_mode == "HTML" else self.text

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Its inline keyboard's buttons, row after row ([] without one)."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [button for row in rows for button in row]

    @property
    def button_texts(self) -> list[str]:
        return [button["text"] for button in self.buttons]

    @property
    def forces_reply(self) -> bool:
        return bool((self.reply_markup or {}).get("force_reply"))

    def as_sent(self) -> dict[str, Any]:
        """The message as the Bot API returns it (and puts it in an update)."""
        message: dict[str, Any] = {
            "message_id": self.message_id,
            "date": int(time.time()),
            "chat": {"id": self.chat_id, "type": "private"},
            "text": self.plain,
        }
        if self.from_bot:
            message["from"] = {"id": int(TOKEN.partition(":")[0]), "is_bot": True}
        else:
            message["from"] = {"id": self.chat_id, "is_bot": False, "first_name": "Ada"}
        if self.reply_markup is not None:
            message["reply_markup"] = self.reply_markup
        return message


@dataclass
class Call:
    """One request the bot made: the method and its parameters (JSON values decoded)."""

    method: str
    params: dict[str, Any]
    at: float = field(default_factory=time.monotonic)


class StandInBotApi:
    """The Bot API of one bot (`token`), on 127.0.0.1 (`url`)."""

    def __init__(self, token: str = TOKEN, port: int = 0) -> None:
        self.token = token
        self.port = port
        self.calls: list[Call] = []
        self.messages: dict[int, Message] = {}
        self.callback_answers: dict[str, dict[str, Any]] = {}
        """`answerCallbackQuery` by the id of the press it answers."""
        self._updates: list[dict[str, Any]] = []
        self._confirmed = 0
        """Updates with an id below this were confirmed by a `getUpdates` offset: gone."""
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._press_ids = itertools.count(1)
        self._changed = threading.Condition()
        self._http = LocalHTTP(self._serve)

    @property
    def url(self) -> str:
        """The API's base URL: what `PROVIDE_CHOICE_TELEGRAM_API` names."""
        return f"http://127.0.0.1:{self.port}"

    # Starting and stopping --------------------------------------------------------------------

    def start(self) -> StandInBotApi:
        """Listen (on the port it had before, after `stop`)."""
        self.port = self._http.open(self.port)
        return self

    def stop(self) -> None:
        """Close the port: from now on a connection is refused, as to a Telegram out of reach,
        and the bot's kept-alive connections are cut. The answers being written are written
        first; a long poll waiting now gets its answer (empty) first."""

        def wake() -> None:
            with self._changed:
                self._changed.notify_all()

        self._http.close(wake)

    # What the bot sent ------------------------------------------------------------------------

    def sent(self, method: str) -> list[Call]:
        return [call for call in self.calls if call.method == method]

    def bot_messages(self, chat_id: int = CHAT_ID) -> list[Message]:
        """The bot's messages in the chat, oldest first, as they read now (edits applied)."""
        return [
            message
            for message in self.messages.values()
            if message.from_bot and message.chat_id == chat_id
        ]

    def wait(self, condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
        """Return as soon as `condition()` holds (the stand-in is told of every request); fail
        saying `what` was awaited after `seconds`."""
        deadline = time.monotonic() + seconds
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                assert left > 0, f"the bot never {what} (waited {seconds} s); it sent: {self.calls}"
                self._changed.wait(left)

    async def until(self, condition: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
        """`wait`, for a test in the event loop (which the bot may share)."""
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, (
                f"the bot never {what} (waited {seconds} s); it sent: {self.calls}"
            )
            await asyncio.sleep(0.01)

    def message_with(self, text: str, chat_id: int = CHAT_ID) -> Message:
        """The newest message of the bot's in the chat whose text holds `text` (it must be there)."""
        found = [message for message in self.bot_messages(chat_id) if text in message.plain]
        assert found, f"no message of the bot's holds {text!r}: {self.bot_messages(chat_id)}"
        return found[-1]

    # What the person does ---------------------------------------------------------------------

    def person(self, chat_id: int = CHAT_ID) -> Person:
        return Person(self, chat_id)

    def queue(self, update: dict[str, Any]) -> dict[str, Any]:
        """Queue an update for the bot's next `getUpdates` (a long poll waiting now returns it)."""
        with self._changed:
            update = {"update_id": next(self._update_ids), **update}
            self._updates.append(update)
            self._changed.notify_all()
        return update

    def pending_updates(self) -> list[dict[str, Any]]:
        """The updates queued and not yet confirmed by the bot."""
        with self._changed:
            return [u for u in self._updates if u["update_id"] >= self._confirmed]

    # Serving ----------------------------------------------------------------------------------

    def _serve(self, request: BaseHTTPRequestHandler) -> None:
        address = urlsplit(request.path)
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length) if length else b""
        status, answer = 200, {"ok": True, "result": None}
        try:
            method = self._method(address.path)
            params = _parameters(request.headers.get("Content-Type", ""), body, address.query)
            with self._changed:
                self.calls.append(Call(method, params))
                self._changed.notify_all()
            answer["result"] = self._answer(method, params)
        except ApiError as error:
            status = error.code
            answer = {"ok": False, "error_code": error.code, "description": error.description}
        data = json.dumps(answer).encode()
        try:
            request.send_response(status)
            request.send_header("Content-Type", "application/json")
            request.send_header("Content-Length", str(len(data)))
            request.end_headers()
            request.wfile.write(data)
        except OSError:
            pass  # the bot gave up on a long poll: nobody reads this answer

    def _method(self, path: str) -> str:
        found = re.fullmatch(r"/bot(?P<token>[^/]+)/(?P<method>\w+)", path)
        if found is None:
            raise ApiError(404, "Not Found")
        if found["token"] != self.token:
            raise ApiError(401, "Unauthorized")
        return found["method"]

    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getUpdates":
            return self._get_updates(params)
        if method == "sendMessage":
            return self._send(params)
        if method in ("editMessageText", "editMessageReplyMarkup"):
            return self._edit(method, params)
        if method == "answerCallbackQuery":
            return self._answer_press(params)
        raise ApiError(404, "Not Found: method not found")

    def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        timeout = min(float(params.get("timeout") or 0), LONG_POLL_LIMIT)
        deadline = time.monotonic() + timeout
        with self._changed:
            if offset:
                self._confirmed = max(self._confirmed, offset)
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
            while True:
                waiting = [u for u in self._updates if u["update_id"] >= self._confirmed]
                left = deadline - time.monotonic()
                if waiting or left <= 0 or not self._http.is_open:
                    return waiting[: int(params.get("limit") or 100)]
                self._changed.wait(left)

    def _send(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(params["chat_id"])
        text = _checked_text(params)
        markup = _checked_markup(params.get("reply_markup"))
        reply = params.get("reply_parameters") or {}
        reply_to = reply.get("message_id") or params.get("reply_to_message_id")
        with self._changed:
            message = Message(
                next(self._message_ids),
                chat_id,
                text,
                from_bot=True,
                parse_mode=params.get("parse_mode"),
                reply_markup=markup,
                reply_to=None if reply_to is None else int(reply_to),
            )
            self.messages[message.message_id] = message
            self._changed.notify_all()
        return message.as_sent()

    def _edit(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        message = self.messages.get(int(params.get("message_id") or 0))
        if message is None or message.chat_id != int(params.get("chat_id") or 0):
            raise ApiError(400, "Bad Request: message to edit not found")
        markup = _checked_markup(params.get("reply_markup"))
        if method == "editMessageText":
            text, parse_mode = _checked_text(params), params.get("parse_mode")
        else:
            text, parse_mode = message.text, message.parse_mode
        if (text, parse_mode, markup) == (message.text, message.parse_mode, message.reply_markup):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message",
            )
        with self._changed:
            message.text, message.parse_mode, message.reply_markup = text, parse_mode, markup
            message.edits += 1
            self._changed.notify_all()
        return message.as_sent()

    def _answer_press(self, params: dict[str, Any]) -> bool:
        press = str(params.get("callback_query_id"))
        if press in self.callback_answers:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired")
        with self._changed:
            self.callback_answers[press] = params
            self._changed.notify_all()
        return True


class Person:
    """Someone in one chat with the bot: what they do becomes the bot's next updates."""

    def __init__(self, api: StandInBotApi, chat_id: int) -> None:
        self.api = api
        self.chat_id = chat_id

    def says(self, text: str, reply_to: int | None = None) -> Message:
        """Send `text` in the chat (a reply to the bot's message `reply_to`)."""
        api = self.api
        with api._changed:
            message = Message(
                next(api._message_ids), self.chat_id, text, from_bot=False, reply_to=reply_to
            )
            api.messages[message.message_id] = message
        sent = message.as_sent()
        if reply_to is not None:
            sent["reply_to_message"] = api.messages[reply_to].as_sent()
        api.queue({"message": sent})
        return message

    def replies(self, to: Message, text: str) -> Message:
        return self.says(text, reply_to=to.message_id)

    def presses(self, message: Message, button: str) -> str:
        """Press the button of `message` whose text is `button` (or whose text ends with it: the
        toggles are "☐ label"); returns the press's id, which `answer_to` reads."""
        matching = [b for b in message.buttons if b["text"] == button]
        matching = matching or [b for b in message.buttons if b["text"].endswith(f" {button}")]
        assert len(matching) == 1, f"no single button {button!r} in {message.button_texts}"
        return self.presses_data(message, matching[0]["callback_data"])

    def presses_data(self, message: Message, data: str) -> str:
        """Send a press with this `callback_data` on `message` (as a stale or forged client may)."""
        press = str(next(self.api._press_ids))
        self.api.queue(
            {
                "callback_query": {
                    "id": press,
                    "from": {"id": self.chat_id, "is_bot": False, "first_name": "Ada"},
                    # Seen from this person's chat: a forged or misrouted press names it.
                    "message": {
                        **message.as_sent(),
                        "chat": {"id": self.chat_id, "type": "private"},
                    },
                    "chat_instance": str(self.chat_id),
                    "data": data,
                }
            }
        )
        return press

    async def toast(self, press: str, seconds: float = 10.0) -> str:
        """`answer_to`, for a test in the event loop (which the bot may share)."""
        callback_answers = self.api.callback_answers
        await self.api.until(lambda: press in callback_answers, f"answered press {press}", seconds)
        return str(callback_answers[press].get("text") or "")

    def answer_to(self, press: str, seconds: float = 10.0) -> str:
        """The text the bot answered the press with (its toast; "" for none), once it did."""
        self.api.wait(
            lambda: press in self.api.callback_answers, f"answered press {press}", seconds
        )
        return str(self.api.callback_answers[press].get("text") or "")


def _parameters(content_type: str, body: bytes, query: str) -> dict[str, Any]:
    """A request's parameters as the Bot API reads them: a JSON body, a form, or the query
    string; in a form or a query, a value that is JSON (reply_markup) is decoded."""
    if content_type.startswith("application/json"):
        data = json.loads(body or b"{}")
        if not isinstance(data, dict):
            raise ApiError(400, "Bad Request: parameters must be an object")
        return data
    pairs = parse_qsl(body.decode() if body else query, keep_blank_values=True)
    params: dict[str, Any] = {}
    for key, value in pairs:
        if key == "reply_markup" or key == "reply_parameters":
            params[key] = json.loads(value)
        else:
            params[key] = value
    return params


def _checked_text(params: dict[str, Any]) -> str:
    text = str(params.get("text") or "")
    if not text.strip():
        raise ApiError(400, "Bad Request: message text is empty")
    if params.get("parse_mode") == "HTML":
        _check_html(text)
        length = len(plain_text(text))
    else:
        length = len(text)
    if length > TEXT_LIMIT:
        raise ApiError(400, "Bad Request: message is too long")
    return text


def _checked_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None:
        return None
    if isinstance(markup, str):
        markup = json.loads(markup)
    for row in markup.get("inline_keyboard", []):
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= CALLBACK_DATA_LIMIT:
                raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if not str(button.get("text") or "").strip():
                raise ApiError(
                    400, "Bad Request: text buttons are unallowed in the inline keyboard"
                )
    return dict(markup)


class _TelegramHtml(HTMLParser):
    """Reads HTML as Telegram does: the tags of its subset, nested properly, and nothing else."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            raise ApiError(
                400, f'Bad Request: can\'t parse entities: unsupported start tag "{tag}"'
            )
        for name, _value in attrs:
            if name not in ALLOWED_TAGS[tag]:
                raise ApiError(
                    400, f"Bad Request: can't parse entities: unsupported attribute {name}"
                )
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            raise ApiError(400, f'Bad Request: can\'t parse entities: unexpected end tag "{tag}"')
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if "<" in data or ">" in data:
            raise ApiError(400, "Bad Request: can't parse entities: unescaped < or >")
        self.text.append(data)

    def handle_entityref(self, name: str) -> None:
        if name not in ("lt", "gt", "amp", "quot"):
            raise ApiError(400, f"Bad Request: can't parse entities: unsupported entity &{name};")
        self.text.append({"lt": "<", "gt": ">", "amp": "&", "quot": '"'}[name])

    def handle_charref(self, name: str) -> None:
        self.text.append(chr(int(name[1:], 16) if name.startswith("x") else int(name)))


def _check_html(text: str) -> None:
    bare = ENTITY.sub("", text)
    if "&" in bare:
        raise ApiError(400, "Bad Request: can't parse entities: unescaped &")
    parser = _TelegramHtml()
    parser.feed(text)
    parser.close()
    if parser.open:
        raise ApiError(400, f'Bad Request: can\'t parse entities: unclosed tag "{parser.open[-1]}"')


def plain_text(html: str) -> str:
    """Telegram HTML as the person reads it."""
    parser = _TelegramHtml()
    parser.feed(html)
    parser.close()
    return "".join(parser.text)


@contextmanager
def stand_in_bot_api(token: str = TOKEN) -> Iterator[StandInBotApi]:
    """A stand-in Bot API, listening, for the length of the block."""
    api = StandInBotApi(token).start()
    try:
        yield api
    finally:
        api.stop()


def telegram_environment(api: StandInBotApi, chat_id: int | None = CHAT_ID) -> dict[str, str]:
    """The variables that point the plug-in at the stand-in (and link the chat)."""
    variables = {"PROVIDE_CHOICE_TELEGRAM_TOKEN": api.token, "PROVIDE_CHOICE_TELEGRAM_API": api.url}
    if chat_id is not None:
        variables["PROVIDE_CHOICE_TELEGRAM_CHAT"] = str(chat_id)
    return variables
