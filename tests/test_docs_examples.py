"""The documentation's code cannot drift: every code block and command line of the README and of
the site's pages (tests/support/documented.py finds them all) is checked against the real thing.

Command lines are parsed by the commands' own argparse parsers (and `make -n`), Python examples
run (those that start a server are compiled and their imports resolved), the ```choices example is
one valid prompt, and the tmux line is one tmux takes. A block of a kind this file does not know
fails, so a new example gets a check when it is written. The JSON examples (requests, responses,
snippets) are checked by test_docs_requests.py.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import re
import shlex
import shutil
import subprocess
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType

import pytest
from client_config import EXAMPLE_PORT, client_config_output
from documented import ROOT, Block, all_text, blocks, every_block, inline_code

from chat_ui._command_line._options import command_parser as choices_chat_parser
from present_choices import ChoicesSegment, split_message
from provide_choice._commands import _choice_terminal as choice_terminal_cli
from provide_choice._commands._command_line import command_line

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
PROGRAMS = ("provide-choice", "choices-chat", "choice-terminal", "make", "pip", "streamlit")
NGINX_CONFIGS = {"choices-chat.conf": "choices_chat", "provide-choice.conf": "provide_choice"}
"""The nginx configurations the pages name, and the upstream of the example each one holds."""
NGINX_ACTIONS: tuple[list[str], ...] = ([], ["-s", "quit"], ["-s", "stop"], ["-g", "daemon off;"])

KNOWN: dict[str, Callable[[Block], bool]] = {
    "sh": lambda block: True,
    "python": lambda block: True,
    "json": lambda block: True,
    "markdown": lambda block: block.text.lstrip().startswith("```choices"),
    # run where nginx is found: the chat's by e2e/chat_redis, provide_choice's by e2e/remote
    "nginx": lambda block: any(
        f"upstream {name} " in block.text for name in NGINX_CONFIGS.values()
    ),
    # the plug-in's pyproject, installed and run by e2e/mcp/test_plugin_transport.py
    "toml": lambda block: block.text.startswith("# pyproject.toml\n"),
    "tmux": lambda block: block.text == "set -g allow-passthrough on\n",
    "": lambda block: block.text.startswith(
        ("choices-chat [", "Invalid provide_choice request", "present_choices/", "The answers file")
    ),
}


def unknown_kind(block: Block) -> bool:
    return False


def test_every_code_block_is_of_a_kind_checked_here() -> None:
    unknown = [
        str(block) for block in every_block() if not KNOWN.get(block.info, unknown_kind)(block)
    ]
    assert unknown == []


@pytest.mark.parametrize("block", blocks("markdown"), ids=str)
def test_the_choices_fence_example_is_one_valid_prompt(block: Block) -> None:
    segments = split_message(block.text)
    assert [type(segment) for segment in segments] == [ChoicesSegment]


@pytest.mark.parametrize("block", blocks("tmux"), ids=str)
def test_the_tmux_line_is_one_tmux_takes(block: Block, tmp_path: Path) -> None:
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    (tmp_path / "tmux.conf").write_text(block.text)
    socket = str(tmp_path / "socket")
    shown = subprocess.run(
        [tmux, "-S", socket, "-f", str(tmp_path / "tmux.conf"), "start-server", ";",
         "show-options", "-g", "allow-passthrough"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    subprocess.run([tmux, "-S", socket, "kill-server"], capture_output=True, timeout=30)
    assert shown.stdout.strip() == "allow-passthrough on", shown.stderr


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
                pytest.skip(f"needs the {extra} extra: .venv/bin/pip install -e '.[test,{extra}]'")
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
    for name, code in inline_code():
        if Path(code.split(" ", 1)[0]).name in PROGRAMS and " " in code:
            for placeholder in (name for name in METAVARS if " " in name):
                code = code.replace(placeholder, shlex.quote(placeholder))
            words = [METAVARS.get(word, word) for word in shlex.split(code)]
            yield f"{name} (in the text): {code}", words


def parses(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    try:
        return parser.parse_args(arguments)
    except SystemExit:
        pytest.fail(f"{parser.prog} {shlex.join(arguments)} does not parse")


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
    assert (name == ".") == (words[0] == ".venv/bin/pip"), "a checkout installs with its own pip"
    for extra in filter(None, extras.rstrip("]").split(",")):
        assert extra in project["optional-dependencies"], target


def check_example(words: list[str]) -> None:
    """`.venv/bin/python examples/NAME.py ...`: an example of the checkout, run by the checkout's
    Python (a bare `python` may lack the project), whose own parser takes the arguments (an
    example that needs an extra not installed is skipped, saying which)."""
    assert words[0] == ".venv/bin/python", "an example runs with the checkout's Python"
    script = ROOT / words[1]
    assert script.parent == ROOT / "examples", words[1]
    assert script.is_file(), words[1]
    spec = importlib.util.spec_from_file_location(f"examples.{script.stem}", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as missing:
        extra = OPTIONAL_EXTRAS.get((missing.name or "").partition(".")[0], "ag-ui")
        needs = f"{words[1]} needs {missing.name or missing}"
        pytest.skip(f"{needs}: .venv/bin/pip install -e '.[{extra}]'")
    parses(module.parser(), words[2:])


def check_streamlit_run(words: list[str]) -> None:
    """`.venv/bin/streamlit run examples/NAME.py --section.option VALUE ...`: an example of the
    checkout, run by the checkout's Streamlit, and options Streamlit has."""
    config = pytest.importorskip("streamlit.config", reason="needs the streamlit extra")
    assert words[0] == ".venv/bin/streamlit", "an example runs with the checkout's Streamlit"
    assert words[1] == "run"
    script = ROOT / words[2]
    assert script.parent == ROOT / "examples", words[2]
    assert script.is_file(), words[2]
    options = words[3:]
    assert len(options) % 2 == 0, "every option has its value"
    known = config.get_config_options()
    for option in options[::2]:
        assert option.removeprefix("--") in known, option


def check_nginx(words: list[str]) -> None:
    """`nginx -c "$PWD/NAME.conf" [-s quit | -s stop | -g 'daemon off;']`: a configuration the
    pages show in full, started, stopped, or run in the foreground."""
    assert words[1] == "-c", words
    config = words[2].removeprefix("$PWD/")
    assert config in NGINX_CONFIGS, words[2]
    assert words[3:] in NGINX_ACTIONS, words
    shown = [block.text for block in blocks("nginx", "events {}")]
    assert any(f"upstream {NGINX_CONFIGS[config]} " in text for text in shown), config


def check_claude(words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    printed = {
        client_config_output("claude-code", capsys=capsys).strip(),
        client_config_output("claude-code", "--http", str(EXAMPLE_PORT), capsys=capsys).strip(),
    }
    assert shlex.join(words) in printed


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
        check_example(words)
    elif program == "streamlit":
        check_streamlit_run(words)
    elif program == "nginx":
        check_nginx(words)
    elif program == "claude":
        check_claude(words, capsys)
    else:
        pytest.fail(f"{where}: a command this test does not know")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = command_line()
    (commands,) = [
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    ]
    return dict(commands.choices)


def test_every_option_of_every_command_is_documented() -> None:
    text = all_text()
    for name, command in subcommands().items():
        assert f"provide-choice {name}" in text
        for action in command._actions:
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert option in text, f"provide-choice {name} {option}"


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


def test_markdown_it_sees_the_blocks_these_tests_check() -> None:
    # The checks above are only as good as the parse: make sure it found what is plainly there.
    assert len(every_block()) >= 40
    assert {block.page for block in every_block()} >= {"README.md", "docs/chat.md"}
