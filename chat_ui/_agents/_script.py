"""`ScriptAgent`: replies from a fixed list, read from a JSON file by `load_script` (`choices-chat
--agent script`). A script makes a conversation that tests and demos can replay word for word."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from chat_ui._model import Message

END_OF_SCRIPT = "(end of script)"
USER_TOKEN = "{{user}}"


class ScriptError(ValueError):
    """A script file that cannot be used; the message says what is allowed."""


class ScriptAgent:
    """Replies from a fixed list: the greeting first, then the i-th reply to the i-th user message.

    `{{user}}` in a reply stands for the user message it answers, so a script can echo a choice.
    """

    def __init__(self, replies: Sequence[str]) -> None:
        if not replies:
            raise ScriptError("a script needs at least the greeting")
        self.replies = list(replies)

    async def reply(self, history: Sequence[Message]) -> AsyncIterator[str]:
        user_messages = [message["content"] for message in history if message["role"] == "user"]
        turn = len(user_messages)
        if turn >= len(self.replies):
            yield END_OF_SCRIPT
            return
        text = self.replies[turn]
        yield text.replace(USER_TOKEN, user_messages[-1]) if user_messages else text


def load_script(path: str | Path) -> ScriptAgent:
    """Read a script file: a JSON array of strings, the greeting first, then one reply per turn."""
    allowed = "a script file must hold a JSON array of strings (the greeting, then one reply per user message)"
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScriptError(f"script file {path} not found; {allowed}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ScriptError(f"cannot read script file {path} ({error}); {allowed}") from None
    except ValueError as error:
        raise ScriptError(f"script file {path} is not valid JSON ({error}); {allowed}") from None
    if not isinstance(data, list) or not data or not all(isinstance(item, str) for item in data):
        raise ScriptError(f"script file {path} is not a non-empty array of strings; {allowed}")
    return ScriptAgent(data)
