"""What one `provide_choice` call is: a question, a batch of questions, or a poll of an open one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from present_choices import ChoicesError
from provide_choice._contract._batch import BatchRequest, is_batch, parse_batch
from provide_choice._contract._request import ProvideChoiceRequest, parse_request


@dataclass(frozen=True)
class SessionPoll:
    """A call that only names a hand-off session to wait for (`session_id`)."""

    session_id: str


def parse_call(arguments: Mapping[str, Any]) -> ProvideChoiceRequest | BatchRequest | SessionPoll:
    """Tool arguments → a question, a batch (`questions`), or a poll of an open question when
    `session_id` is given.

    A poll ignores every other argument, so an agent may simply repeat its first call plus the id.
    """
    session_id = arguments.get("session_id")
    if session_id is None:
        asked = {key: value for key, value in arguments.items() if key != "session_id"}
        return parse_batch(asked) if is_batch(asked) else parse_request(asked)
    if not isinstance(session_id, str) or not session_id.strip():
        raise ChoicesError(["session_id must be a non-empty string from an earlier response"])
    return SessionPoll(session_id.strip())
