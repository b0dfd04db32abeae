"""Conversations kept by an earlier version, brought up to the current message shape when read.

Until the call was kept as data, an assistant message whose block the model had asked with a tool call
held that block as a ```choices fence at the end of its `content`, with the call's id beside it in
`tool_call_id`, and the call was rebuilt from the fence on every turn. Now the call itself is kept
(`Message.tool_call`) and `content` holds only the text. People have conversations saved in the old
shape, so reading one rewrites those messages once; nothing else in the chat knows the old shape.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence
from typing import Any, cast

from chat_ui._model._conversation import Message
from chat_ui._model._reply import ChoicesAsked
from present_choices import ChoicesSegment, split_message

OLD_CALL_ID = "tool_call_id"


def upgrade_history(history: MutableSequence[Message]) -> None:
    """Replace, in place, every message kept in the old shape by the same message in the current one
    (a list a UI framework keeps for a browser, NiceGUI's say, saves itself when an item is
    replaced)."""
    for index, message in enumerate(cast(MutableSequence[Mapping[str, Any]], history)):
        if OLD_CALL_ID in message:
            history[index] = upgrade_message(message)


def upgrade_message(message: Mapping[str, Any]) -> Message:
    """`message` in the current shape. An old one whose content ends with the fence of its call
    becomes the text before the fence and the call; one whose content no longer ends with a valid
    fence (it was changed since) was shown as its text, and stays that text."""
    content: str = message["content"]
    upgraded: Message = {"role": message["role"], "content": content}
    segments = split_message(content)
    last = segments[-1] if segments else None
    kept = content.rstrip()
    if isinstance(last, ChoicesSegment) and kept.endswith(last.raw):
        upgraded["content"] = kept[: -len(last.raw)].rstrip()
        upgraded["tool_call"] = ChoicesAsked(last.prompt, str(message[OLD_CALL_ID])).tool_call()
    return upgraded
