"""How the command line checks an option's value, and what it says of one it refuses: in the
person's language, with what is allowed (`--limit x`: "must be a whole number of questions from 1
to 1000000, got 'x'"). argparse puts "argument --limit:" before it, itself said in that language.
"""

from __future__ import annotations

import argparse

from present_choices._translation import Translation
from provide_choice._bridge._site import HOST, PublicUrl, parse_public_url

PORT_MAX = 65_535
MAX_WAIT_LIMIT = 86_400
HISTORY_LIMIT_MAX = 1_000_000


def words() -> Translation:
    """The person's language: their setting, else the terminal's."""
    # Deferred for start-up time: the settings load pydantic, which only a mistake needs here.
    from provide_choice._settings_file import terminal_words

    return terminal_words()


def port(text: str) -> int:
    """A TCP port for argparse: 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= PORT_MAX:
        raise argparse.ArgumentTypeError(
            words().gettext(
                "must be a port number from 0 (any free port) to {maximum}, got {text}",
                maximum=PORT_MAX,
                text=repr(text[:20]),
            )
        )
    return port


def public_url(text: str) -> PublicUrl:
    try:
        return parse_public_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def mcp_endpoint(text: str) -> str:
    """An MCP endpoint's URL; a port number stands for the one of a server on this machine, and
    an address without a path for its `/mcp`."""
    if text.strip().isdigit():
        return f"http://{HOST}:{port(text.strip())}/mcp"
    public = public_url(text)
    return public.base if public.path else f"{public.base}/mcp"


def max_wait(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= MAX_WAIT_LIMIT:
        raise argparse.ArgumentTypeError(
            words().gettext(
                "must be seconds from 0 (until the question's deadline) to {maximum}, got {text}",
                maximum=MAX_WAIT_LIMIT,
                text=repr(text[:20]),
            )
        )
    return seconds


def history_limit(text: str) -> int:
    try:
        limit = int(text)
    except ValueError:
        limit = 0
    if not 1 <= limit <= HISTORY_LIMIT_MAX:
        raise argparse.ArgumentTypeError(
            words().gettext(
                "must be a whole number of questions from 1 to {maximum}, got {text}",
                maximum=HISTORY_LIMIT_MAX,
                text=repr(text[:20]),
            )
        )
    return limit


def search_text(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(
            words().gettext("must be some text to look for, got nothing")
        )
    return text
