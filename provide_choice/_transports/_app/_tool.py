"""`provide_choice_app`: the tool only the provide_choice view calls (`visibility: ["app"]`, so the
model never sees it), through its host's `tools/call`.

It carries what the page's WebSocket and HTTP routes carry, as one message per call: `open` finds
the question the view was drawn for (from the call's arguments), then `state` reads it, and
`draft`, `settings`, `visibility` and `answer` change it. Each carries the host's `locale`, in which
the state is said unless the person's setting names a language. Each goes through the same handlers as
the page's (`apply`): the view reports what the person did, `_contract._meaning` decides what it
means, and the answer meets the same checks and the same `normalize` as on every surface; a
misfit comes back to the view (an error result listing the problems), never to the agent's result.
"""

from __future__ import annotations

import json
from typing import Any, Literal, get_args

from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, ConfigDict, ValidationError

from present_choices import ChoicesError
from present_choices._translation import N_, chosen
from provide_choice._contract._request import describe
from provide_choice._question import StoreUnavailable
from provide_choice._settings_file import load_settings
from provide_choice._transports._app._questions import AppQuestions, NotHere
from provide_choice._transports._question_view._pages import HANDLERS, apply
from provide_choice._transports._question_view._shown import prompt_html
from provide_choice._transports._question_view._state import QuestionPage

TOOL_NAME = "provide_choice_app"
TOOL_DESCRIPTION = (
    "Used by the provide_choice view inside the conversation to show the person's question and "
    "send their answer. Not for the model."
)
GONE = N_("this question is not open in the conversation any more")

MessageKind = Literal["open", "state", "draft", "settings", "visibility", "answer"]
assert set(get_args(MessageKind)) == {"open", "state", *HANDLERS}


class AppMessage(BaseModel):
    """One message from the view."""

    model_config = ConfigDict(extra="forbid", strict=True)

    type: MessageKind
    question_id: str | None = None
    """The question `open` found (every type but `open`)."""
    arguments: dict[str, Any] | None = None
    """The provide_choice call's arguments, as the host gave them to the view (`open` only)."""
    data: Any = None
    locale: str | None = None
    """The host's language (its `hostContext.locale`), when it says one."""

    @property
    def signal(self) -> list[str]:
        """The languages the host knows the person by, best first."""
        return [self.locale] if self.locale else []


def parameters_schema() -> dict[str, Any]:
    schema: dict[str, Any] = AppMessage.model_json_schema()
    return schema


class AppTool:
    """The tool, over the questions the `app` transport shows."""

    def __init__(self, questions: AppQuestions) -> None:
        self.questions = questions

    async def __call__(self, arguments: dict[str, Any]) -> CallToolResult:
        try:
            message = AppMessage.model_validate(arguments)
        except ValidationError as error:
            return _reply({"problems": describe(error)}, refused=True)
        if message.type == "open":
            return await self._open(message.arguments or {}, message.signal)
        try:
            page = await self.questions.fetch(message.question_id or "")
        except StoreUnavailable as away:
            return _reply({"problems": [str(away)]}, refused=True)
        if page is None:
            gone = chosen(load_settings().language, message.signal).gettext(GONE)
            return _reply({"problems": [gone]}, refused=True)
        if message.type == "state":
            return _reply({"state": view_state(page, message.signal)})
        status, body = await apply(page, message.type, message.data, message.signal)
        if "state" in body:
            body["state"] = view_state(page, message.signal)
        return _reply(body, refused=status != 200)

    async def _open(self, arguments: dict[str, Any], signal: list[str]) -> CallToolResult:
        try:
            page = await self.questions.find(arguments)
        except StoreUnavailable as away:
            return _reply({"problems": [str(away)]}, refused=True)
        except ChoicesError as error:
            return _reply({"problems": error.problems}, refused=True)
        except NotHere as elsewhere:
            said = elsewhere.said(chosen(load_settings().language, signal))
            return _reply({"problems": [said]}, refused=True)
        return _reply(
            {
                "question_id": page.question.id,
                "title": page.title,
                "prompt_html": prompt_html(
                    page.question.interaction.asked, page.translation(signal)
                ),
                "state": view_state(page, signal),
            }
        )


def view_state(page: QuestionPage, signal: list[str]) -> dict[str, Any]:
    """The page's state, without the inbox: a link to this machine's 127.0.0.1 means nothing in a
    conversation that may run elsewhere, and a sandboxed view cannot follow it."""
    return page.state(signal) | {"inbox_url": None}


def _reply(body: dict[str, Any], refused: bool = False) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(body, ensure_ascii=False))],
        structured_content=body,
        is_error=refused,
    )
