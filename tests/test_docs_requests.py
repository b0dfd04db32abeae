"""The documentation's JSON cannot drift: every JSON block of the README and of the site's pages is
of a kind checked here, and each is checked against the real thing.

A request is valid, or gets word for word the error shown right after it; a response follows, on
the same page, the request it answers, and a test produces it from that request (the server runs
it unattended, or the one normalizing function builds it from the person's answers); the client
snippets are what `provide-choice client-config` prints (but for the path); the answers file
answers the questions of these pages as the text says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import anyio
import pytest
from client_config import EXAMPLE_PORT, client_config_output
from documented import Block, after, all_text, before, blocks, inline_code
from mcp import Client

from chat_ui._model._conversation import Role, ToolCall, asked_prompt
from provide_choice import (
    Answered,
    BatchAnswered,
    BatchRequest,
    InteractionSettings,
    ProvideChoiceResponse,
    SessionPoll,
    create_server,
    normalize,
    parse_call,
)
from provide_choice._contract._batch_response import normalize_batch
from provide_choice._contract._setting_changes import shown_settings
from provide_choice._server._client_config import CLIENTS
from provide_choice._server._unattended import AnswerPolicy, command_line_policy
from provide_choice._settings_file import load_settings
from provide_choice.slack._config import SlackConfig
from provide_choice.telegram._config import TelegramConfig


def data(block: Block) -> Any:
    return json.loads(block.text)


def json_blocks(*keys: str) -> list[Block]:
    return [block for block in blocks("json") if any(key in data(block) for key in keys)]


def is_request(block: Block) -> bool:
    shown = data(block) if block.info == "json" else None
    return (
        isinstance(shown, dict)
        and "action_status" not in shown
        and ("selection_mode" in shown or "questions" in shown)
    )


def requests() -> list[Block]:
    return [block for block in blocks("json") if is_request(block)]


def responses() -> list[Block]:
    return json_blocks("action_status")


def chat_histories() -> list[Block]:
    """JSON blocks that are a chat's history: a list of messages."""
    return [block for block in blocks("json") if isinstance(data(block), list)]


def answers_file_block() -> Block:
    """The answers file: the JSON block whose `answers` are rules, not a batch's answers."""
    (block,) = [block for block in json_blocks("answers") if "action_status" not in data(block)]
    return block


def test_every_json_block_is_json_of_a_kind_checked_here() -> None:
    kinds = json_blocks(
        "mcpServers", "servers", "notify_urls", "telegram", "slack", "display_information"
    )
    kinds += [*requests(), *responses(), *chat_histories(), answers_file_block()]
    assert [str(block) for block in blocks("json") if block not in kinds] == []


def test_the_settings_file_shown_is_settings_as_written() -> None:
    (block,) = json_blocks("notify_urls")
    shown = data(block)
    assert set(shown) <= set(InteractionSettings.model_fields)
    assert (
        InteractionSettings.model_validate(shown).model_dump(mode="json", include=set(shown))
        == shown
    )


def test_the_telegram_settings_shown_are_read_as_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (block,) = json_blocks("telegram")
    (tmp_path / "settings.json").write_text(block.text)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    shown = data(block)
    config = TelegramConfig.read(environ={})
    assert (config.token, config.chat_id) == (
        shown["telegram"]["token"],
        shown["telegram"]["chat_id"],
    )
    assert config.api_url == "https://api.telegram.org"
    settings = load_settings()
    assert settings.alerts.on("telegram") is shown["alerts"]["telegram"]
    assert shown["telegram"]["token"] not in json.dumps(shown_settings(settings))


def test_the_slack_settings_shown_are_read_as_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (block,) = json_blocks("slack")
    (tmp_path / "settings.json").write_text(block.text)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    shown = data(block)["slack"]
    config = SlackConfig.read(environ={})
    assert (config.bot_token, config.app_token, config.channel) == (
        shown["bot_token"],
        shown["app_token"],
        shown["channel"],
    )
    assert str(config.bot_token).startswith("xoxb-")
    assert str(config.app_token).startswith("xapp-")
    assert config.allowed_users == frozenset(shown["allowed_users"])
    assert config.api_url == "https://slack.com/api/"
    assert config.problem is None
    settings = load_settings()
    assert settings.alerts.on("slack") is True
    assert shown["bot_token"] not in json.dumps(shown_settings(settings))


def test_the_slack_app_manifest_asks_for_what_the_plug_in_uses() -> None:
    """The manifest's bot scopes are those the plug-in's calls need (chat.postMessage,
    chat.update, chat.postEphemeral: chat:write; a direct message: im:write), and it turns on
    what its Socket Mode connection and its buttons need."""
    (block,) = json_blocks("display_information")
    manifest = data(block)
    assert manifest["oauth_config"]["scopes"]["bot"] == ["chat:write", "im:write"]
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert manifest["settings"]["interactivity"]["is_enabled"] is True
    assert manifest["features"]["bot_user"]["display_name"]
    assert manifest["features"]["app_home"]["messages_tab_enabled"] is True
    assert "request_url" not in manifest["settings"]["interactivity"], "Socket Mode needs none"


def test_the_chat_history_shown_is_messages_the_chat_reads() -> None:
    (block,) = chat_histories()
    history = data(block)
    assert {message["role"] for message in history} <= set(get_args(Role))
    asked = [message for message in history if "tool_call" in message]
    assert asked, "the example shows a call kept as data"
    for message in asked:
        assert set(message["tool_call"]) == set(ToolCall.__annotations__)
        assert asked_prompt(message) is not None, "its arguments are a valid ChoicePrompt"


# Client snippets ----------------------------------------------------------------------------------


def test_the_client_snippets_are_what_client_config_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    printed = {client: client_config_output(client, capsys=capsys) for client in CLIENTS}
    shown = [data(block) for block in json_blocks("mcpServers", "servers")]
    for client in ("claude-desktop", "cursor", "vscode"):
        assert json.loads(printed[client]) in shown, client
    assert all(snippet in [json.loads(printed[c]) for c in CLIENTS[1:]] for snippet in shown)
    (claude_code,) = blocks("sh", "claude mcp add provide-choice")
    assert claude_code.text == printed["claude-code"]
    for client in CLIENTS:
        assert f"client-config {client}" in all_text()


def test_the_http_snippets_in_the_text_are_what_client_config_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = [
        json.loads(code) for _, code in inline_code() if '"servers"' in code or "mcpServers" in code
    ]
    for client in ("cursor", "vscode"):
        printed = client_config_output(client, "--http", str(EXAMPLE_PORT), capsys=capsys)
        assert json.loads(printed) in shown, client


# Requests, and the errors they get ----------------------------------------------------------------


def error_after(request: Block) -> Block | None:
    """The error block right after a request, when one follows it."""
    following = after(request)
    if following and following[0].text.startswith("Invalid provide_choice request"):
        return following[0]
    return None


def test_every_error_shown_follows_the_request_it_answers() -> None:
    assert len(requests()) >= 4
    (error,) = blocks("", "Invalid provide_choice request")
    assert error in [error_after(request) for request in requests()]
    (misfit,) = blocks("", "The answers file")
    assert is_request(before(misfit)[0]), f"{misfit} follows the request it answers"


@pytest.mark.parametrize("request_block", requests(), ids=str)
def test_a_request_example_is_valid_or_gets_exactly_the_error_shown(
    request_block: Block, home: Path
) -> None:
    request = data(request_block)
    error = error_after(request_block)
    if error is None:
        parse_call(request)
        return

    async def answer() -> tuple[bool, str]:
        async with Client(create_server({})) as client:
            result = await client.call_tool("provide_choice", request)
        (content,) = result.content
        return result.is_error, getattr(content, "text", "")

    is_error, text = anyio.run(answer)
    assert is_error
    assert text + "\n" == error.text


# Responses, each produced from the request shown before it ----------------------------------------


def request_before(response: Block) -> Block:
    """The request a response answers: the nearest JSON block above it on its page, which must be
    a request (not another response)."""
    above = [block for block in before(response) if block.info == "json"]
    assert above, f"{response} shows a response with no request before it on its page"
    assert is_request(above[0]), f"{response} follows {above[0]}, not the request it answers"
    return above[0]


def answered_as_shown(answer: dict[str, Any]) -> Answered:
    fields = ("selected_ids", "custom_input", "option_annotations", "placeholder_used")
    return Answered(**{name: answer[name] for name in fields if name in answer})


def built_from_the_answers(request: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """The response the one normalizing function builds from the request and the answers the
    response shows a person gave, where it says they gave them."""
    selection = shown["selection"]
    asked = parse_call(request)
    note = selection["global_annotation"]
    if isinstance(asked, BatchRequest):
        answers = {answer["id"]: answered_as_shown(answer) for answer in shown["answers"]}
        batch = BatchAnswered(answers=answers, global_annotation=note)
        response = normalize_batch(asked, batch, selection["transport"], url=selection["url"])
    else:
        assert not isinstance(asked, SessionPoll), "a poll is no question"
        single = answered_as_shown(selection).model_copy(update={"global_annotation": note})
        response = normalize(asked, single, selection["transport"], url=selection["url"])
    return response.model_dump(mode="json")


async def asked_with(policy: AnswerPolicy, request: dict[str, Any]) -> tuple[bool, Any]:
    """Whether the server refused `request`, and its structured content (or its error's text)."""
    async with Client(create_server(policy=policy)) as client:
        result = await client.call_tool("provide_choice", request)
    if result.is_error:
        (content,) = result.content
        return True, getattr(content, "text", "")
    return False, result.structured_content


IN_CI = command_line_policy(
    "the server", attended=False, unattended=False, answers=None, environ={"CI": "true"}
)


@pytest.mark.parametrize("response_block", responses(), ids=str)
def test_every_response_shown_is_what_the_request_before_it_gets(
    response_block: Block, home: Path
) -> None:
    shown = data(response_block)
    assert ProvideChoiceResponse.model_validate(shown).model_dump(mode="json") == shown
    request = data(request_before(response_block))
    if shown["action_status"] == "unattended":
        assert anyio.run(asked_with, IN_CI, request) == (False, shown)
    elif shown["answered_by"] == "person":
        assert built_from_the_answers(request, shown) == shown
    else:
        pytest.fail(f"{response_block}: a response this test cannot produce from its request")


def test_a_recommended_option_is_no_default_when_nobody_is_asked(home: Path) -> None:
    (ask_request,) = [block for block in requests() if block.page == "docs/provide-choice.md"
                      and data(block)["title"] == "Database"]  # fmt: skip
    refused, reply = anyio.run(asked_with, IN_CI, data(ask_request))
    assert not refused
    assert reply["selection"]["selected_ids"] == []
    assert f"`{reply['selection']['summary']}`" in all_text(), "the pages say what it gets"


# The answers file ---------------------------------------------------------------------------------


def requests_titled(title: str) -> list[dict[str, Any]]:
    return [data(block) for block in requests() if data(block)["title"] == title]


def test_the_answers_file_shown_answers_the_questions_of_these_pages_as_it_says(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "answers.json").write_text(answers_file_block().text)
    monkeypatch.chdir(home)
    policy = command_line_policy(
        "the server", attended=False, unattended=False, answers="answers.json", environ={}
    )
    assert len(requests_titled("Database")) >= 2
    for request in requests_titled("Database"):
        refused, database = anyio.run(asked_with, policy, request)
        assert not refused
        assert (database["action_status"], database["answered_by"]) == ("selected", "answers_file")
        summary = database["selection"]["summary"]
        assert (
            summary
            == "Selected: SQLite (with an overall note). (from the answers file answers.json)"
        )
        assert f"`{summary}`" in all_text()
    (project,) = requests_titled("Project set-up")
    refused, batch = anyio.run(asked_with, policy, project)
    assert not refused
    assert {answer["id"]: answer["selected_ids"] for answer in batch["answers"]} == {
        "db": ["pg"],
        "features": ["auth", "search"],
        "name": [],
    }
    assert batch["answers"][2]["custom_input"] == "billing"
    (misfit,) = blocks("", "The answers file")
    refused, error = anyio.run(asked_with, policy, data(before(misfit)[0]))
    assert refused
    assert error + "\n" == misfit.text


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    return tmp_path
