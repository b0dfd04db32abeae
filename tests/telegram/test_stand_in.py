"""The stand-in Bot API the Telegram tests use answers as Telegram does where the plug-in relies on
it: its paths and token, JSON or form or query parameters, the long poll (at once when an update is
queued, else at its timeout), the HTML it refuses, `callback_data` over 64 bytes, an edit that
changes nothing, and a port that refuses connections once stopped."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from telegram_api import CHAT_ID, StandInBotApi, stand_in_bot_api


@pytest.fixture
def stand_in() -> Iterator[StandInBotApi]:
    with stand_in_bot_api() as running:
        yield running


def call(
    api: StandInBotApi, method: str, token: str | None = None, **request: object
) -> httpx.Response:
    return httpx.post(f"{api.url}/bot{token or api.token}/{method}", timeout=10, **request)  # type: ignore[arg-type]


def test_json_form_and_query_parameters_are_read_alike(stand_in: StandInBotApi) -> None:
    markup = {"inline_keyboard": [[{"text": "Done", "callback_data": "d"}]]}
    sent = call(
        stand_in, "sendMessage", json={"chat_id": CHAT_ID, "text": "one", "reply_markup": markup}
    )
    assert sent.json()["result"]["reply_markup"] == markup
    form = {"chat_id": str(CHAT_ID), "text": "two", "reply_markup": json.dumps(markup)}
    assert call(stand_in, "sendMessage", data=form).json()["ok"] is True
    assert call(stand_in, "sendMessage", params={"chat_id": CHAT_ID, "text": "three"}).json()["ok"]
    assert [m.text for m in stand_in.bot_messages()] == ["one", "two", "three"]
    assert stand_in.bot_messages()[1].buttons == [{"text": "Done", "callback_data": "d"}]


def test_a_wrong_token_or_method_is_refused_as_telegram_refuses_it(stand_in: StandInBotApi) -> None:
    refused = call(stand_in, "getUpdates", token="1:wrong")
    assert (refused.status_code, refused.json()) == (
        401,
        {"ok": False, "error_code": 401, "description": "Unauthorized"},
    )
    assert call(stand_in, "getMe").status_code == 404


@pytest.mark.parametrize(
    "text",
    [
        "<b>unclosed",
        "<script>x</script>",
        "a < b",
        "Q&A",
        "<b><i>crossed</b></i>",
        '<a onclick="x">l</a>',
    ],
)
def test_html_telegram_cannot_parse_is_refused(stand_in: StandInBotApi, text: str) -> None:
    refused = call(
        stand_in, "sendMessage", json={"chat_id": CHAT_ID, "text": text, "parse_mode": "HTML"}
    )
    assert refused.status_code == 400
    assert refused.json()["description"].startswith("Bad Request: can't parse entities")


def test_callback_data_over_64_bytes_and_an_edit_changing_nothing_are_refused(
    stand_in: StandInBotApi,
) -> None:
    too_long = {"inline_keyboard": [[{"text": "x", "callback_data": "é" * 33}]]}
    refused = call(
        stand_in, "sendMessage", json={"chat_id": CHAT_ID, "text": "t", "reply_markup": too_long}
    )
    assert refused.json()["description"] == "Bad Request: BUTTON_DATA_INVALID"
    sent = call(stand_in, "sendMessage", json={"chat_id": CHAT_ID, "text": "t"}).json()["result"]
    edit = {"chat_id": CHAT_ID, "message_id": sent["message_id"], "text": "t"}
    assert (
        "message is not modified"
        in call(stand_in, "editMessageText", json=edit).json()["description"]
    )


def test_the_long_poll_answers_at_once_with_an_update_else_at_its_timeout(
    stand_in: StandInBotApi,
) -> None:
    started = time.monotonic()
    assert call(stand_in, "getUpdates", json={"timeout": 0.3}).json()["result"] == []
    assert time.monotonic() - started >= 0.3
    stand_in.person().says("/start")
    started = time.monotonic()
    (update,) = call(stand_in, "getUpdates", json={"timeout": 30}).json()["result"]
    assert time.monotonic() - started < 5
    assert update["message"]["text"] == "/start"
    offset = update["update_id"] + 1
    assert (
        call(stand_in, "getUpdates", json={"offset": offset, "timeout": 0}).json()["result"] == []
    )
    assert stand_in.pending_updates() == []


def test_once_stopped_connections_are_refused_and_it_starts_again_on_its_port(
    stand_in: StandInBotApi,
) -> None:
    url = stand_in.url
    stand_in.stop()
    with pytest.raises(httpx.ConnectError):
        call(stand_in, "getUpdates")
    stand_in.start()
    assert stand_in.url == url
    assert call(stand_in, "getUpdates", json={"timeout": 0}).json()["ok"] is True
