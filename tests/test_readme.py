"""The README cannot drift: every code block and command line it shows is checked against the real
thing, and its tables are tables.

Blocks are found with markdown-it-py, as a renderer would see them. Command lines are parsed by the
commands' own argparse parsers (and `make -n`), request examples by the request parser, the error
example must be word for word what the server answers to the request shown before it, the client
snippets must be what `provide-choice client-config` prints (but for the path), and Python
examples run (those that start a server are compiled and their imports resolved). A block of a
kind this file does not know fails, so a new example gets a check when it is written.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any, get_args

import anyio
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mcp import Client

import provide_choice.__main__ as provide_choice_cli
from chat_ui._command_line._options import command_parser as choices_chat_parser
from chat_ui._model._conversation import Role, ToolCall, asked_prompt
from present_choices import ChoicesSegment, split_message
from provide_choice import (
    Answered,
    BatchAnswered,
    BatchRequest,
    InteractionSettings,
    ProvideChoiceResponse,
    create_server,
    parse_call,
)
from provide_choice._contract._batch_response import normalize_batch
from provide_choice._contract._settings import load_settings, shown_settings
from provide_choice._server._client_config import CLIENTS, server_command
from provide_choice._server._command_line import command_line
from provide_choice._server._unattended import AnswerPolicy, command_line_policy
from provide_choice._transports._terminal_handoff import _client as choice_terminal_cli
from provide_choice.slack._config import SlackConfig
from provide_choice.telegram._config import TelegramConfig

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOKENS = MarkdownIt("commonmark").enable("table").parse(README)
PLACEHOLDER = "/path/to/.venv/bin/provide-choice"
"""Where the README's client snippets put the path that `client-config` prints in full."""
TOKEN_PLACEHOLDER = "<token>"
"""What the README's snippets for a server over HTTP show for the server's token."""
EXAMPLE_PORT = 8765
"""The port of the README's `serve --http` example."""
METAVARS = {
    "PORT": str(EXAMPLE_PORT),
    "PORT=<a free port>": f"PORT={EXAMPLE_PORT}",
    "REQUEST.json": "request.json",
    "<client>": "cursor",
    "URL": "https://choices.example.com/mcp",
    "ADDR": "0.0.0.0",
    "PREFIX": "provide-choice:",
}
"""Placeholders in the command lines quoted in the text, and a value each stands for."""
PROGRAMS = ("provide-choice", "choices-chat", "choice-terminal", "make", "streamlit")


@dataclass(frozen=True)
class Block:
    info: str
    text: str
    line: int

    def __str__(self) -> str:
        return f"README.md:{self.line} ({self.info or 'plain'})"


BLOCKS = [
    Block(token.info.strip(), token.content, token.map[0] + 1 if token.map else 0)
    for token in TOKENS
    if token.type == "fence"
]


def blocks(info: str, start: str = "") -> list[Block]:
    return [block for block in BLOCKS if block.info == info and block.text.startswith(start)]


def inline_code() -> Iterator[str]:
    for token in TOKENS:
        if token.type == "inline":
            for child in token.children or ():
                if child.type == "code_inline":
                    yield child.content


# Tables -------------------------------------------------------------------------------------------


def lines_of(kind: str) -> set[int]:
    """The source lines (0-based) that markdown-it renders as a `kind` ("table_open", "fence")."""
    covered: set[int] = set()
    for token in TOKENS:
        if token.type == kind and token.map:
            covered.update(range(*token.map))
    return covered


def test_regression_every_table_row_is_inside_a_table() -> None:
    # The contract table's session_id row sat after a paragraph and rendered as literal pipes.
    inside, fenced = lines_of("table_open"), lines_of("fence")
    stray = [
        f"README.md:{number + 1}: {line}"
        for number, line in enumerate(README.splitlines())
        if line.startswith("|") and number not in inside and number not in fenced
    ]
    assert stray == []


def cells(line: str) -> int:
    return len(re.split(r"(?<!\\)\|", line.strip().strip("|")))


def test_every_table_row_has_as_many_cells_as_its_header() -> None:
    lines = README.splitlines()
    tables = [token.map for token in TOKENS if token.type == "table_open" and token.map]
    assert len(tables) >= 3
    for start, end in tables:
        header = cells(lines[start])
        uneven = [lines[number] for number in range(start, end) if cells(lines[number]) != header]
        assert uneven == [], f"README.md:{start + 1}"


def test_the_contract_table_names_every_argument_of_the_tool() -> None:
    from provide_choice import tool_input_schema

    names: set[str] = set()
    lines = README.splitlines()
    for token in TOKENS:
        if token.type == "table_open" and token.map and "| argument |" in lines[token.map[0]]:
            for line in lines[token.map[0] + 2 : token.map[1]]:
                names.update(re.findall(r"`(\w+)`", line.split("|")[1]))
    assert names == set(tool_input_schema()["properties"])


# Code blocks --------------------------------------------------------------------------------------

KNOWN = {
    "sh": lambda block: True,
    "python": lambda block: True,
    "json": lambda block: True,
    "markdown": lambda block: block.text.lstrip().startswith("```choices"),
    # run where nginx is found: the chat's by e2e/chat_redis, provide_choice's by e2e/remote
    "nginx": lambda block: (
        "upstream choices_chat" in block.text or "upstream provide_choice" in block.text
    ),
    # the plug-in's pyproject, installed and run by e2e/mcp/test_plugin_transport.py
    "toml": lambda block: block.text.startswith("# pyproject.toml\n"),
    "": lambda block: block.text.startswith(
        ("choices-chat [", "Invalid provide_choice request", "present_choices/", "The answers file")
    ),
}


def test_every_code_block_is_of_a_kind_checked_here() -> None:
    unknown = [str(block) for block in BLOCKS if not KNOWN.get(block.info, lambda _: False)(block)]
    assert unknown == []


@pytest.mark.parametrize("block", blocks("markdown"), ids=str)
def test_the_choices_fence_example_is_one_valid_prompt(block: Block) -> None:
    segments = split_message(block.text)
    assert [type(segment) for segment in segments] == [ChoicesSegment]


OPTIONAL_EXTRAS = {
    "pydantic_ai": "llm",
    "ag_ui": "ag-ui",
    "redis": "redis",
    "gradio": "gradio",
    "streamlit": "streamlit",
}
"""The top-level modules of the optional extras, and the extra that installs each."""


@pytest.mark.parametrize("block", blocks("python"), ids=str)
def test_python_examples_run_or_at_least_import(block: Block) -> None:
    code = compile(block.text, str(block), "exec")
    for node in ast.walk(ast.parse(block.text)):
        if isinstance(node, ast.ImportFrom) and node.module:
            try:
                module = importlib.import_module(node.module)
                for alias in node.names:
                    assert hasattr(module, alias.name), f"{node.module} has no {alias.name}"
            except ModuleNotFoundError as missing:
                extra = OPTIONAL_EXTRAS.get((missing.name or "").partition(".")[0])
                if extra is None:
                    raise
                pytest.skip(f"needs the {extra} extra: pip install -e '.[test,{extra}]'")
    if ".launch(" in block.text:
        run_gradio_example(code)
    elif "import streamlit" in block.text:
        run_streamlit_example(block.text)
    elif "ui.run(" not in block.text:  # the others start a web server
        namespace: dict[str, object] = {}
        try:
            exec(code, namespace)
        finally:
            # The example that registers a transport keeps it for the rest of its process; these
            # tests share theirs with others, which list the transports (`unregister` undoes it).
            undo = namespace.get("unregister")
            if callable(undo):
                undo()


def run_gradio_example(code: CodeType) -> None:
    """Run a Gradio example up to its `launch()`, which is where it would serve: what it launches
    must be a chat (a `gr.Blocks` with a `gr.Chatbot`)."""
    import gradio as gr

    launched: list[gr.Blocks] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gr.Blocks, "launch", lambda blocks, *args, **kwargs: launched.append(blocks))
        exec(code, {})
    assert len(launched) == 1
    kinds = {type(block).__name__ for block in launched[0].blocks.values()}
    assert "Chatbot" in kinds


def run_streamlit_example(text: str) -> None:
    """Run a Streamlit example as Streamlit runs a script, with its own `AppTest`: it draws the
    demo's first question as buttons, without an exception."""
    from streamlit.testing.v1 import AppTest

    app = AppTest.from_string(text.replace("DemoAgent()", "DemoAgent(chunk_delay=0)"))
    app.run(timeout=30)
    assert not app.exception, app.exception
    assert [button.label for button in app.button] == [
        "A weekend trip",
        "Tonight's dinner",
        "A side project",
    ]


# Command lines ------------------------------------------------------------------------------------


def command_lines() -> Iterator[tuple[str, list[str]]]:
    """Every command line of the shell blocks (comments and pipes after it left out, variables
    set before it dropped), and every command quoted in the text."""
    for block in blocks("sh"):
        for line in block.text.splitlines():
            words = shlex.split(line, comments=True)
            if "|" in words:
                words = words[: words.index("|")]
            while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
                words = words[1:]
            if words:
                yield f"{block}: {line}", words
    for code in inline_code():
        if code.split(" ", 1)[0] in PROGRAMS and " " in code:
            for placeholder in (name for name in METAVARS if " " in name):
                code = code.replace(placeholder, shlex.quote(placeholder))
            words = [METAVARS.get(word, word) for word in shlex.split(code)]
            yield f"README.md (in the text): {code}", words


def parses(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    try:
        return parser.parse_args(arguments)
    except SystemExit:
        pytest.fail(f"{parser.prog} {shlex.join(arguments)} does not parse")


def client_config_output(*arguments: str, capsys: pytest.CaptureFixture[str]) -> str:
    """What `provide-choice client-config ...` prints on stdout, with the README's placeholders for
    this installation's path and the server's token (given as `$PROVIDE_CHOICE_TOKEN`, so that no
    token file is made)."""
    capsys.readouterr()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROVIDE_CHOICE_TOKEN", TOKEN_PLACEHOLDER)
        assert provide_choice_cli.main(["client-config", *arguments]) == 0
    return capsys.readouterr().out.replace(server_command()[0], PLACEHOLDER)


def check_pip_install(words: list[str]) -> None:
    """`pip install 'agent-choices[llm]'`, or in a checkout `.venv/bin/pip install -e '.[llm]'`
    (the pip `make demo` made, which no shell has on its path): the project and the extra exist."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    target = words[-1]
    name, _, extras = target.partition("[")
    assert words[0] in ("pip", ".venv/bin/pip")
    assert words[1] == "install"
    assert name in (project["name"], "."), target
    assert (name == ".") == ("-e" in words), "a checkout installs itself editable"
    if words[0] == ".venv/bin/pip":
        assert name == ".", "the checkout's own pip installs the checkout"
    for extra in extras.rstrip("]").split(","):
        assert extra in project["optional-dependencies"], target


def check_example(arguments: list[str]) -> None:
    """`python examples/NAME.py ...`: an example of the checkout, whose own parser takes the
    arguments (an example that needs an extra not installed is skipped, saying which)."""
    script = ROOT / arguments[0]
    assert script.parent == ROOT / "examples", arguments[0]
    assert script.is_file(), arguments[0]
    spec = importlib.util.spec_from_file_location(f"examples.{script.stem}", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as missing:
        extra = OPTIONAL_EXTRAS.get((missing.name or "").partition(".")[0], "ag-ui")
        pytest.skip(f"{arguments[0]} needs {missing.name or missing}: pip install -e '.[{extra}]'")
    parses(module.parser(), arguments[1:])


def check_streamlit_run(arguments: list[str]) -> None:
    """`streamlit run examples/NAME.py --section.option VALUE ...`: an example of the checkout, and
    options Streamlit has."""
    config = pytest.importorskip("streamlit.config", reason="needs the streamlit extra")
    assert arguments[0] == "run"
    script = ROOT / arguments[1]
    assert script.parent == ROOT / "examples", arguments[1]
    assert script.is_file(), arguments[1]
    options = arguments[2:]
    assert len(options) % 2 == 0, "every option has its value"
    known = config.get_config_options()
    for option in options[::2]:
        assert option.removeprefix("--") in known, option


@pytest.mark.parametrize(("where", "words"), list(command_lines()), ids=lambda value: str(value))
def test_every_command_line_shown_is_accepted(
    where: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    program, arguments = Path(words[0]).name, words[1:]
    if program == "provide-choice" and len(arguments) == 1 and "(in the text)" in where:
        assert arguments[0] in subcommands(), where  # a command named, like `provide-choice ask`
    elif program == "provide-choice":
        parses(command_line(), arguments)
    elif program == "choices-chat":
        parses(choices_chat_parser(), arguments)
    elif program == "choice-terminal":
        parses(choice_terminal_cli._parser(), arguments)
    elif program == "make":
        if shutil.which("make") is None:
            pytest.skip("make is not installed")
        dry_run = subprocess.run(
            ["make", "-n", "-C", str(ROOT), *arguments], capture_output=True, text=True, timeout=60
        )
        assert dry_run.returncode == 0, dry_run.stderr
    elif program == "pip":
        check_pip_install(words)
    elif program == "python":
        check_example(arguments)
    elif program == "streamlit":
        check_streamlit_run(arguments)
    elif program == "claude":
        printed = {
            client_config_output("claude-code", capsys=capsys).strip(),
            client_config_output("claude-code", "--http", str(EXAMPLE_PORT), capsys=capsys).strip(),
        }
        assert shlex.join(words) in printed
    else:
        pytest.fail(f"{where}: a command this test does not know")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = command_line()
    (commands,) = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    return dict(commands.choices)


def test_every_option_of_every_command_is_in_the_readme() -> None:
    for name, command in subcommands().items():
        assert f"provide-choice {name}" in README
        for action in command._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert option in README, f"provide-choice {name} {option}"


def test_the_choices_chat_synopsis_is_its_parser() -> None:
    (block,) = blocks("", "choices-chat [")
    parser = choices_chat_parser()
    options = {
        option: action
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }
    assert set(re.findall(r"\[(--[a-z-]+)", block.text)) == set(options)
    for option, shown in re.findall(r"\[(--[a-z-]+) ([^\]]+)\]", block.text):
        action = options[option]
        if action.choices is not None:
            assert shown.split("|") == list(action.choices), option
        elif action.default is not None:
            assert shown == str(action.default), option


# JSON examples ------------------------------------------------------------------------------------


def json_blocks(*keys: str) -> list[Block]:
    return [block for block in blocks("json") if any(key in json.loads(block.text) for key in keys)]


def test_every_json_block_is_json_of_a_kind_checked_here() -> None:
    kinds = json_blocks(
        "mcpServers",
        "servers",
        "action_status",
        "selection_mode",
        "questions",
        "notify_urls",
        "telegram",
        "slack",
        "display_information",
    )
    kinds += [*chat_histories(), answers_file_block()]
    assert [str(block) for block in blocks("json") if block not in kinds] == []


def test_the_settings_file_shown_is_settings_as_written() -> None:
    (block,) = json_blocks("notify_urls")
    data = json.loads(block.text)
    assert set(data) <= set(InteractionSettings.model_fields)
    assert (
        InteractionSettings.model_validate(data).model_dump(mode="json", include=set(data)) == data
    )


def test_the_telegram_settings_shown_are_read_as_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (block,) = json_blocks("telegram")
    (tmp_path / "settings.json").write_text(block.text)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    data = json.loads(block.text)
    config = TelegramConfig.read(environ={})
    assert (config.token, config.chat_id) == (
        data["telegram"]["token"],
        data["telegram"]["chat_id"],
    )
    assert config.api_url == "https://api.telegram.org"
    settings = load_settings()
    assert settings.alerts.on("telegram") is data["alerts"]["telegram"]
    assert data["telegram"]["token"] not in json.dumps(shown_settings(settings))


def test_the_slack_settings_shown_are_read_as_they_say(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (block,) = json_blocks("slack")
    (tmp_path / "settings.json").write_text(block.text)
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    shown = json.loads(block.text)["slack"]
    config = SlackConfig.read(environ={})
    assert (config.bot_token, config.app_token, config.channel) == (
        shown["bot_token"],
        shown["app_token"],
        shown["channel"],
    )
    assert config.bot_token.startswith("xoxb-")
    assert config.app_token.startswith("xapp-")
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
    manifest = json.loads(block.text)
    assert manifest["oauth_config"]["scopes"]["bot"] == ["chat:write", "im:write"]
    assert manifest["settings"]["socket_mode_enabled"] is True
    assert manifest["settings"]["interactivity"]["is_enabled"] is True
    assert manifest["features"]["bot_user"]["display_name"]
    assert manifest["features"]["app_home"]["messages_tab_enabled"] is True
    assert "request_url" not in manifest["settings"]["interactivity"], "Socket Mode needs none"


def chat_histories() -> list[Any]:
    """JSON blocks that are a chat's history: a list of messages."""
    return [block for block in blocks("json") if isinstance(json.loads(block.text), list)]


def test_the_chat_history_shown_is_messages_the_chat_reads() -> None:
    (block,) = chat_histories()
    history = json.loads(block.text)
    assert {message["role"] for message in history} <= set(get_args(Role))
    asked = [message for message in history if "tool_call" in message]
    assert asked, "the example shows a call kept as data"
    for message in asked:
        assert set(message["tool_call"]) == set(ToolCall.__annotations__)
        assert asked_prompt(message) is not None, "its arguments are a valid ChoicePrompt"


def test_the_client_snippets_are_what_client_config_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    printed = {client: client_config_output(client, capsys=capsys) for client in CLIENTS}
    shown = [json.loads(block.text) for block in json_blocks("mcpServers", "servers")]
    for client in ("claude-desktop", "cursor", "vscode"):
        assert json.loads(printed[client]) in shown, client
    assert all(snippet in [json.loads(printed[c]) for c in CLIENTS[1:]] for snippet in shown)
    (claude_code,) = blocks("sh", "claude mcp add provide-choice")
    assert claude_code.text == printed["claude-code"]
    for client in CLIENTS:
        assert f"client-config {client}" in README


def test_the_http_snippets_in_the_text_are_what_client_config_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    shown = [
        json.loads(code) for code in inline_code() if '"servers"' in code or "mcpServers" in code
    ]
    for client in ("cursor", "vscode"):
        printed = client_config_output(client, "--http", str(EXAMPLE_PORT), capsys=capsys)
        assert json.loads(printed) in shown, client


def requests_and_errors() -> Iterator[tuple[Block, Block | None]]:
    """Each request example, with the error block that follows it when there is one."""
    for block in json_blocks("selection_mode", "questions"):
        following = BLOCKS[BLOCKS.index(block) + 1 :]
        error = following[0] if following and following[0].info == "" else None
        if error is not None and not error.text.startswith("Invalid provide_choice request"):
            error = None
        yield block, error


def test_every_request_example_is_checked() -> None:
    examples = list(requests_and_errors())
    assert len(examples) >= 2
    assert sum(error is not None for _, error in examples) == 1
    (error,) = blocks("", "Invalid provide_choice request")
    assert error in [shown for _, shown in examples]


@pytest.mark.parametrize(("request_block", "error"), list(requests_and_errors()), ids=str)
def test_a_request_example_is_valid_or_gets_exactly_the_error_shown(
    request_block: Block, error: Block | None, home: Path
) -> None:
    request = json.loads(request_block.text)
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


@pytest.mark.parametrize("block", json_blocks("action_status"), ids=str)
def test_the_response_example_is_a_response(block: Block) -> None:
    data: dict[str, Any] = json.loads(block.text)
    assert ProvideChoiceResponse.model_validate(data).model_dump(mode="json") == data


def test_the_batch_response_example_is_what_the_batch_example_gets() -> None:
    (request_block,) = json_blocks("questions")
    (response_block,) = [block for block in json_blocks("action_status") if "answers" in block.text]
    batch = parse_call(json.loads(request_block.text))
    assert isinstance(batch, BatchRequest)
    shown = json.loads(response_block.text)
    answers = {
        answer["id"]: Answered(
            selected_ids=answer["selected_ids"],
            custom_input=answer["custom_input"],
            option_annotations=answer["option_annotations"],
            placeholder_used=answer["placeholder_used"],
        )
        for answer in shown["answers"]
    }
    url = shown["selection"]["url"]
    response = normalize_batch(batch, BatchAnswered(answers=answers), "web", url=url)
    assert response.model_dump(mode="json") == shown


# Unattended runs and the answers file ------------------------------------------------------------


def answers_file_block() -> Block:
    """The README's answers file: the JSON block whose `answers` are rules, not a batch's answers."""
    (block,) = [
        block for block in json_blocks("answers") if "action_status" not in json.loads(block.text)
    ]
    return block


def request_titled(title: str) -> dict[str, Any]:
    (request,) = [
        json.loads(block.text)
        for block in json_blocks("selection_mode", "questions")
        if json.loads(block.text)["title"] == title
    ]
    return request


async def asked_with(policy: AnswerPolicy, request: dict[str, Any]) -> tuple[bool, Any]:
    """Whether the server refused `request`, and its structured content (or its error's text)."""
    async with Client(create_server(policy=policy)) as client:
        result = await client.call_tool("provide_choice", request)
    if result.is_error:
        (content,) = result.content
        return True, getattr(content, "text", "")
    return False, result.structured_content


def test_the_answers_file_shown_answers_the_questions_of_the_readme_as_it_says(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "answers.json").write_text(answers_file_block().text)
    monkeypatch.chdir(home)
    policy = command_line_policy(
        "the server", attended=False, unattended=False, answers="answers.json", environ={}
    )
    refused, database = anyio.run(asked_with, policy, request_titled("Database"))
    assert not refused
    assert (database["action_status"], database["answered_by"]) == ("selected", "answers_file")
    summary = database["selection"]["summary"]
    assert (
        summary == "Selected: SQLite (with an overall note). (from the answers file answers.json)"
    )
    assert f"`{summary}`" in README
    refused, batch = anyio.run(asked_with, policy, request_titled("Project set-up"))
    assert not refused
    assert {answer["id"]: answer["selected_ids"] for answer in batch["answers"]} == {
        "db": ["pg"],
        "features": ["auth", "search"],
        "name": [],
    }
    assert batch["answers"][2]["custom_input"] == "billing"
    (misfit,) = blocks("", "The answers file")
    request_block = BLOCKS[BLOCKS.index(misfit) - 1]
    refused, error = anyio.run(asked_with, policy, json.loads(request_block.text))
    assert refused
    assert error + "\n" == misfit.text


def test_the_unattended_response_shown_is_what_a_server_in_ci_answers(home: Path) -> None:
    (shown,) = [
        json.loads(block.text)
        for block in json_blocks("action_status")
        if json.loads(block.text)["action_status"] == "unattended"
    ]
    policy = command_line_policy(
        "the server", attended=False, unattended=False, answers=None, environ={"CI": "true"}
    )
    request = request_titled("Database") | {"default_selection_ids": ["pg"]}
    assert anyio.run(asked_with, policy, request) == (False, shown)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENT_CHOICES_HOME", str(tmp_path))
    return tmp_path


# The layout ---------------------------------------------------------------------------------------


def test_every_folder_in_the_layout_exists() -> None:
    (block,) = blocks("", "present_choices/")
    parent = ROOT
    for line in block.text.splitlines():
        indent = len(line) - len(line.lstrip())
        if indent not in (0, 2):  # a description running on
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for name in names.rstrip(",").split(", "):
            assert name.endswith("/"), line
            assert ((ROOT if indent == 0 else parent) / name).is_dir(), name
            if indent == 0:
                parent = ROOT / name


def test_markdown_it_sees_the_blocks_this_file_checks() -> None:
    # The checks above are only as good as the parse: make sure it found what is plainly there.
    assert len(BLOCKS) >= 15
    assert isinstance(TOKENS[0], Token)
