"""`provide-choice telegram link`: which chat is the person's.

The person has made a bot with BotFather and given its token; now they send `/start` to it in
Telegram. The command waits for that (up to 5 minutes, saying so), saves the chat it came from
in the settings file (`"telegram": {"chat_id": ...}`), and answers there that questions will come
to it. It reads the bot's updates as the transport does (long polling), so it needs no public
address either; the token is never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any

from provide_choice.telegram._api import BotApi, Refused, Unreachable
from provide_choice.telegram._config import CHAT_VARIABLE, SECTION, TelegramConfig
from provide_choice.telegram._html import escaped
from provide_choice.transports import (
    SectionNotSaved,
    TransportCommand,
    backoff,
    save_plugin_settings,
)

WAIT_SECONDS = 300
"""How long `link` waits for /start by default: 5 minutes."""
POLL_SECONDS = 25
LINKED = (
    "Linked: questions from provide-choice will come here. Answer with their buttons, or by "
    "replying to them."
)
PREFIX = "provide-choice telegram link"


def _arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="telegram_action", required=True, metavar="ACTION")
    link = actions.add_parser(
        "link",
        help="wait for /start sent to the bot, and save that chat as the one questions go to",
        description="Wait (up to 5 minutes) for /start sent to the bot in Telegram, save the chat "
        'it came from in the settings file ("telegram": {"chat_id": ...}) and answer there that '
        "questions will come to it. The bot's token comes from PROVIDE_CHOICE_TELEGRAM_TOKEN or "
        'the settings file\'s "telegram" section.',
    )
    link.add_argument(
        "--wait",
        type=_seconds,
        default=WAIT_SECONDS,
        metavar="SECONDS",
        help="how long to wait for /start (default: %(default)s, 5 minutes)",
    )


def _run(arguments: argparse.Namespace) -> int:
    try:
        return asyncio.run(link(arguments.wait))
    except KeyboardInterrupt:
        return 130


LINK_COMMAND = TransportCommand(
    "answer questions in Telegram: `provide-choice telegram link` links the chat", _arguments, _run
)


async def link(wait: float, config: TelegramConfig | None = None) -> int:
    """Wait up to `wait` seconds for /start, save its chat and say so: the exit status."""
    config = config or TelegramConfig.read()
    if config.token is None:
        _say(f"cannot link: {config.problem}")
        return 2
    minutes = _duration(wait)
    _say(f"send /start to your bot in Telegram now; waiting up to {minutes} (Ctrl-C stops)")
    api = BotApi(config)
    try:
        chat = await _first_start(api, time.monotonic() + wait)
        if chat is None:
            _say(f"no /start reached the bot within {minutes}; run it again to link a chat")
            return 1
        try:
            path = save_plugin_settings(SECTION, {"chat_id": chat["id"]})
        except SectionNotSaved as problem:
            _say(f"cannot save the chat: {problem}")
            return 1
        try:
            await api.call(
                "sendMessage",
                {"chat_id": chat["id"], "text": escaped(LINKED), "parse_mode": "HTML"},
            )
        except (Unreachable, Refused) as failure:
            _say(f"linked, but the bot could not say so in the chat ({failure})")
        _say(f"linked to chat {chat['id']} ({_name(chat)}), saved in {path}")
        if config.chat_id is not None and str(config.chat_id) != str(chat["id"]):
            _say(f"note: {CHAT_VARIABLE} is set ({config.chat_id}) and wins over the saved chat")
        return 0
    except Refused as refused:
        _say(f"Telegram refused the bot ({refused}); check its token")
        return 1
    finally:
        await api.aclose()


async def _first_start(api: BotApi, deadline: float) -> dict[str, Any] | None:
    """The chat of the first /start the bot receives before `deadline` (it is confirmed, so the
    server does not read it again); None when none came. Telegram away is said once."""
    offset: int | None = None
    attempt, said = 0, False
    while (left := deadline - time.monotonic()) > 0:
        params: dict[str, Any] = {"timeout": int(min(POLL_SECONDS, max(left, 1)))}
        if offset is not None:
            params["offset"] = offset
        try:
            updates = await api.call("getUpdates", params, wait=params["timeout"])
        except Unreachable as away:
            if not said:
                _say(f"Telegram cannot be reached ({away}); trying again until the time is up")
                said = True
            await asyncio.sleep(min(backoff(attempt), max(left, 0)))
            attempt += 1
            continue
        for update in updates or ():
            offset = int(update["update_id"]) + 1
            message = update.get("message") or {}
            text = str(message.get("text") or "")
            if text.split("@")[0].strip() == "/start" and isinstance(message.get("chat"), dict):
                await api.call("getUpdates", {"offset": offset, "timeout": 0})
                return dict(message["chat"])
    return None


def _duration(seconds: float) -> str:
    """ "5 minutes", "90 seconds", "1 second"."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return "1 minute" if minutes == 1 else f"{minutes} minutes"
    return "1 second" if seconds == 1 else f"{seconds:g} seconds"


def _name(chat: dict[str, Any]) -> str:
    named = chat.get("username") or chat.get("title") or chat.get("first_name")
    return (
        f"@{chat['username']}" if chat.get("username") else str(named or chat.get("type", "chat"))
    )


def _say(line: str) -> None:
    print(f"{PREFIX}: {line}", file=sys.stderr, flush=True)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 1 <= seconds <= 3600:
        raise argparse.ArgumentTypeError(f"must be seconds from 1 to 3600, got {text[:20]!r}")
    return seconds
