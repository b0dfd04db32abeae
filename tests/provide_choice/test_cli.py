"""`provide-choice` refuses clearly, with exit status 2, whatever keeps it from working; and
`client-config` prints what to paste into each client."""

from __future__ import annotations

import json
import os
import re
import shlex
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from provide_choice.__main__ import main
from provide_choice._server._client_config import CLIENTS
from provide_choice._settings_file import save_changes

VALID = {
    "title": "Database",
    "prompt": "Which database?",
    "selection_mode": "single",
    "options": [
        {"id": "pg", "label": "PostgreSQL", "recommended": True},
        {"id": "lite", "label": "SQLite"},
    ],
}


def run_ask(*arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provide_choice", "ask", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **environment},
    )


def test_in_ci_ask_needs_no_terminal_and_exits_0_saying_nobody_was_asked(home: Path) -> None:
    result = run_ask("--json", json.dumps(VALID | {"default_selection_ids": ["lite"]}), CI="true")
    assert result.returncode == 0, result.stderr
    response = json.loads(result.stdout)
    assert (response["action_status"], response["answered_by"]) == ("unattended", "nobody")
    assert response["selection"]["summary"] == (
        "Nobody was asked: provide-choice ask runs unattended (CI is set); defaults returned, not "
        "chosen by a person: SQLite."
    )
    assert run_ask("--attended", "--json", json.dumps(VALID), CI="true").returncode == 2
    history = subprocess.run(
        [sys.executable, "-m", "provide_choice", "history", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    (recorded,) = [json.loads(line) for line in history.stdout.splitlines()]
    assert (recorded["client"]["name"], recorded["answered_by"]) == ("provide-choice ask", "nobody")


def test_ask_answers_from_the_answers_file_without_a_terminal_or_refuses_a_rule_that_misfits(
    tmp_path: Path,
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"answers": [{"title": "Database", "selected_ids": ["pg"]}]}))
    result = run_ask("--answers", str(answers), "--json", json.dumps(VALID))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["answered_by"] == "answers_file"
    answers.write_text(json.dumps({"answers": [{"title": "Database", "custom_input": "pg"}]}))
    result = run_ask("--json", json.dumps(VALID), PROVIDE_CHOICE_ANSWERS=str(answers))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(
        f"provide-choice ask: The answers file {answers} cannot answer this question: its rule "
        "answers[0] matches the title"
    )
    assert "- custom_input is not allowed for single\n" in result.stderr


def test_without_a_terminal_it_exits_2_with_one_clear_line() -> None:
    result = run_ask("--json", json.dumps(VALID))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "provide-choice ask: needs a terminal, and stdin is not one. Run it from an interactive "
        "shell, or ask on a page with --transport web (it prints the page's address and waits for "
        "the answer; agents with only a shell tool: this), or name a transport in the request; "
        "scripts and CI: --unattended or --answers.\n"
    )


def test_regression_ask_says_a_batch_goes_through_the_mcp_tool(tmp_path: Path) -> None:
    """`ask` said "questions is not an allowed field", as if batches did not exist."""
    request_file = tmp_path / "request.json"
    batch = {"title": "Set-up", "questions": [VALID | {"id": "db"}]}
    request_file.write_text(json.dumps(batch))
    result = run_ask(str(request_file))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        "provide-choice ask: asks one question at a time, and this request holds a batch "
        "(questions). Ask a batch through the MCP tool (`provide-choice serve`), or ask its "
        "questions one by one.\n"
    )


def test_an_invalid_request_lists_every_problem(tmp_path: Path) -> None:
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(VALID | {"selection_mode": "radio", "timeout_seconds": 0}))
    result = run_ask(str(request_file))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "provide-choice ask: invalid request (2 problems):",
        "  - selection_mode must be one of 'single', 'multi', 'text_input' or 'hybrid', got 'radio'",
        "  - timeout_seconds must be at least 1, got 0",
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            ["--json", "{title"],
            "provide-choice ask: --json is not valid JSON: Expecting property name",
        ),
        (
            ["/no/such/request.json"],
            "provide-choice ask: cannot read /no/such/request.json: No such file",
        ),
    ],
)
def test_unreadable_requests_say_what_is_wrong(arguments: list[str], message: str) -> None:
    result = run_ask(*arguments)
    assert result.returncode == 2
    assert result.stderr.startswith(message)


def test_a_request_is_required() -> None:
    result = run_ask()
    assert result.returncode == 2
    assert "one of the arguments REQUEST.json --json is required" in result.stderr


def test_regression_serve_on_a_port_in_use_says_so_once_and_how_to_get_a_free_one() -> None:
    # It named the address twice ("... (while attempting to bind on address ...)") and gave no hint.
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "provide_choice", "serve", "--http", str(port)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 2
    assert result.stderr == (
        f"provide-choice serve: port {port} on 127.0.0.1 is in use; --http 0 picks a free one\n"
    )


def run_serve(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "provide_choice", "serve", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (
            ["--redis", "redis://127.0.0.1:6379/0"],
            "--redis goes with --http PORT (over stdio the MCP client starts the server)",
        ),
        (
            ["--public-url", "https://choices.example.com"],
            "--public-url goes with --http PORT (over stdio the MCP client starts the server)",
        ),
        (
            ["--http", "0", "--bridge-port", "5000"],
            "--bridge-port is for a server over stdio: with --http, the pages and hand-offs are "
            "served on the --http port",
        ),
        (
            ["--http", "0", "--host", "0.0.0.0"],
            "--host 0.0.0.0 listens on every interface: say where people and agents reach this "
            "server with --public-url (https://choices.example.com), since every address it "
            "gives out is under it",
        ),
        (["--http", "0", "--redis-prefix", "mine:"], "--redis-prefix goes with --redis URL"),
        (
            ["--http", "0", "--redis", "http://127.0.0.1:1/0"],
            "--redis http://127.0.0.1:1/0 is not a Redis URL (",
        ),
    ],
)
def test_serve_options_that_do_not_go_together_exit_2_saying_why(
    arguments: list[str], problem: str
) -> None:
    pytest.importorskip("redis", reason="the redis extra reads the URL")
    result = run_serve(*arguments)
    assert result.returncode == 2
    assert result.stderr.startswith(f"provide-choice serve: {problem}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_public_url_that_is_none_is_refused_with_the_usage() -> None:
    result = run_serve("--http", "0", "--public-url", "ftp://choices.example.com")
    assert result.returncode == 2
    assert (
        "argument --public-url: must be an http:// or https:// address such as "
        "https://choices.example.com, got 'ftp://choices.example.com'" in result.stderr
    )


@pytest.mark.parametrize("port", ["70000", "-5", "http"])
@pytest.mark.parametrize("option", ["--bridge-port", "--http"])
def test_regression_a_port_outside_the_range_exits_2_at_start(option: str, port: str) -> None:
    # --bridge-port 70000 was accepted, and every later call failed with an OverflowError.
    result = run_serve(option, port)
    assert result.returncode == 2
    assert f"argument {option}: must be a port number from 0 (any free port) to 65535" in (
        result.stderr
    )


@pytest.mark.parametrize("seconds", ["-1", "1e9", "soon"])
def test_max_wait_outside_its_range_exits_2_saying_what_is_allowed(seconds: str) -> None:
    result = run_serve("--max-wait", seconds)
    assert result.returncode == 2
    assert (
        "argument --max-wait: must be seconds from 0 (until the question's deadline) to 86400"
        in (result.stderr)
    )


def test_the_max_wait_default_in_the_help_is_the_servers() -> None:
    from provide_choice._commands._command_line import MAX_WAIT_SECONDS as DOCUMENTED
    from provide_choice._server._provide_choice_tool import MAX_WAIT_SECONDS

    assert DOCUMENTED == MAX_WAIT_SECONDS == 50


@pytest.mark.parametrize(
    ("arguments", "usage", "problem"),
    [
        (
            ["serve", "--htpp", "8765"],
            "usage: provide-choice serve [-h] [--http PORT]",
            "provide-choice serve: error: unrecognized arguments: --htpp 8765 (did you mean --http?)",
        ),
        (
            ["history", "--jsn"],
            "usage: provide-choice history [-h] [--json]",
            "provide-choice history: error: unrecognized arguments: --jsn (did you mean --json?)",
        ),
        (
            ["inbox", "--no-browsr", "--prot=9000"],
            "usage: provide-choice inbox [-h] [--port PORT]",
            "provide-choice inbox: error: unrecognized arguments: --no-browsr --prot=9000 "
            "(did you mean --no-browser or --port?)",
        ),
        (
            ["serve", "--verbose"],
            "usage: provide-choice serve",
            "provide-choice serve: error: unrecognized arguments: --verbose\n",
        ),
        (
            ["serv"],
            "usage: provide-choice [-h]",
            "provide-choice: error: argument command: invalid choice: 'serv'; did you mean serve? "
            "(choose from serve, ask, history, inbox, client-config, telegram)\n",
        ),
        (
            ["client-config", "cursr"],
            "usage: provide-choice client-config [-h]",
            "provide-choice client-config: error: argument client: invalid choice: 'cursr'; did "
            "you mean cursor? (choose from claude-code, claude-desktop, cursor, vscode)\n",
        ),
        (
            ["launch"],
            "usage: provide-choice [-h]",
            "provide-choice: error: argument command: invalid choice: 'launch' (choose from serve, "
            "ask, history, inbox, client-config, telegram)\n",
        ),
    ],
)
def test_regression_a_mistyped_option_shows_its_commands_usage_and_the_closest_option(
    arguments: list[str], usage: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # `serve --htpp 8765` printed the top-level usage and no suggestion.
    with pytest.raises(SystemExit) as caught:
        main(arguments)
    assert caught.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith(usage)
    assert problem in error


def test_the_suggestion_speaks_the_terminals_language_unless_the_setting_says(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    with pytest.raises(SystemExit):
        main(["inbox", "--no-browsr", "--prot=9000"])
    assert capsys.readouterr().err.endswith(
        "provide-choice inbox：错误：无法识别的参数：--no-browsr --prot=9000"
        "（您是想输入 --no-browser或--port 吗？）\n"
    )
    save_changes({"language": "en"})
    with pytest.raises(SystemExit):
        main(["serv"])
    assert capsys.readouterr().err.endswith(
        "invalid choice: 'serv'; did you mean serve? (choose from serve, ask, history, inbox, "
        "client-config, telegram)\n"
    )


def test_a_mistyped_option_in_a_real_process_exits_2_with_the_suggestion() -> None:
    result = run_serve("--htpp", "8765")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: provide-choice serve ")
    assert result.stderr.endswith(
        "provide-choice serve: error: unrecognized arguments: --htpp 8765 (did you mean --http?)\n"
    )


def test_regression_a_mistyped_command_in_a_real_process_exits_2_with_the_suggestion() -> None:
    # `provide-choice serv` listed the commands, and left finding the one meant to the person.
    result = subprocess.run(
        [installed_script(), "serv"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("usage: provide-choice ")
    assert result.stderr.endswith(
        "invalid choice: 'serv'; did you mean serve? (choose from serve, ask, history, inbox, client-config, telegram)\n"
    )


def test_regression_files_left_open_are_made_private_at_start_saying_so_once(
    tmp_path: Path,
) -> None:
    # Made by an earlier version, or by the chat before it made them private: 755 and 644.
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o755)
    ours = [home / name for name in ("history.sqlite3", "inbox.json", "settings.json")]
    for path in [*ours, home / "notes.txt"]:
        path.write_text("")
        path.chmod(0o644)

    def history() -> str:
        result = subprocess.run(
            [installed_script(), "history"],
            env={**os.environ, "AGENT_CHOICES_HOME": str(home)},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return result.stderr

    said = history().splitlines()
    assert (
        f"provide-choice: made {home} and 3 files in {home} private (mode 700, files 600): "
        "other users could read the conversations, questions, answers, tokens or settings they "
        "hold"
    ) in said
    assert len(said) == 2, "and the empty settings file is said to be broken once"
    modes = [stat.S_IMODE(path.stat().st_mode) for path in [home, *ours, home / "notes.txt"]]
    assert modes == [0o700, 0o600, 0o600, 0o600, 0o644], "the person's own file is theirs"
    assert "private" not in history()


def test_serve_over_stdio_without_a_terminal_says_nothing_of_starting_it_by_hand() -> None:
    result = run_serve()  # stdin is /dev/null: a client's pipe, at its end
    assert result.returncode == 0
    assert "client-config" not in result.stderr


def run_client_config(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [installed_script(), "client-config", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def installed_script() -> str:
    return str(Path(sys.executable).absolute().parent / "provide-choice")


def script_of(command: str) -> str:
    """`command` is this installation's provide-choice: an absolute path to an executable."""
    path = Path(command)
    assert path.is_absolute(), command
    assert path.is_file(), command
    assert os.access(path, os.X_OK), command
    assert path == Path(installed_script()).resolve()
    return command


def test_client_config_for_claude_code_is_the_one_command_to_run() -> None:
    result = run_client_config("claude-code")
    assert result.returncode == 0
    words = shlex.split(result.stdout)
    assert words[:5] == ["claude", "mcp", "add", "provide-choice", "--"]
    assert words[6:] == ["serve"]
    script_of(words[5])
    assert result.stdout.count("\n") == 1
    assert result.stderr.startswith("# Run this command in the project where you use Claude Code")


@pytest.mark.parametrize(
    ("client", "servers", "file"),
    [
        ("claude-desktop", "mcpServers", "claude_desktop_config.json"),
        ("cursor", "mcpServers", str(Path.home() / ".cursor" / "mcp.json")),
        ("vscode", "servers", ".vscode/mcp.json"),
    ],
)
def test_client_config_prints_pure_json_to_paste_and_says_where_on_stderr(
    client: str, servers: str, file: str
) -> None:
    result = run_client_config(client)
    assert result.returncode == 0
    config = json.loads(result.stdout)  # nothing but JSON on stdout: it can be piped
    (name,) = config[servers]
    server = config[servers][name]
    assert name == "provide-choice"
    assert server["args"] == ["serve"]
    script_of(server["command"])
    assert server.get("type", "stdio") == "stdio"
    assert set(server) == {"command", "args"} | ({"type"} if client == "vscode" else set())
    assert result.stderr.startswith("# Merge this into ")
    assert file in result.stderr
    assert result.stderr.count("\n") == 1


REMOTE = "https://choices.example.com/mcp"
TOKEN = "a-token-of-43-characters-made-for-this-test"


@pytest.mark.parametrize(
    ("client", "expected"),
    [
        (
            "claude-code",
            f"claude mcp add --transport http provide-choice {REMOTE} --header "
            f"'Authorization: Bearer {TOKEN}'\n",
        ),
        (
            "claude-desktop",
            {
                "mcpServers": {
                    "provide-choice": {
                        "command": "npx",
                        "args": [
                            "-y",
                            "mcp-remote",
                            REMOTE,
                            "--header",
                            "Authorization:${PROVIDE_CHOICE_AUTHORIZATION}",
                        ],
                        "env": {"PROVIDE_CHOICE_AUTHORIZATION": f"Bearer {TOKEN}"},
                    }
                }
            },
        ),
        (
            "cursor",
            {
                "mcpServers": {
                    "provide-choice": {
                        "url": REMOTE,
                        "headers": {"Authorization": f"Bearer {TOKEN}"},
                    }
                }
            },
        ),
        (
            "vscode",
            {
                "servers": {
                    "provide-choice": {
                        "type": "http",
                        "url": REMOTE,
                        "headers": {"Authorization": f"Bearer {TOKEN}"},
                    }
                }
            },
        ),
    ],
)
def test_client_config_with_http_reaches_a_remote_server_with_its_token(
    client: str, expected: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROVIDE_CHOICE_TOKEN", TOKEN)
    result = run_client_config(client, "--http", REMOTE)
    assert result.returncode == 0, result.stderr
    printed = result.stdout if isinstance(expected, str) else json.loads(result.stdout)
    assert printed == expected
    assert result.stderr.endswith("The token is the one in $PROVIDE_CHOICE_TOKEN.\n")


def test_client_config_with_a_port_reaches_a_server_on_this_machine_with_its_token_file(
    home: Path,
) -> None:
    first = run_client_config("cursor", "--http", "8765")
    assert first.returncode == 0, first.stderr
    (server,) = json.loads(first.stdout)["mcpServers"].values()
    token = (home / "server-token").read_text()
    assert server == {
        "url": "http://127.0.0.1:8765/mcp",
        "headers": {"Authorization": f"Bearer {token}"},
    }
    assert len(token) == 43  # 256 random bits, URL-safe
    assert stat.S_IMODE((home / "server-token").stat().st_mode) == 0o600
    again = run_client_config("vscode", "--http", "http://127.0.0.1:8765")  # /mcp added
    (server,) = json.loads(again.stdout)["servers"].values()
    assert server["url"] == "http://127.0.0.1:8765/mcp"
    assert server["headers"] == {"Authorization": f"Bearer {token}"}  # the same token


def test_regression_client_config_for_claude_desktop_over_plain_http_allows_it() -> None:
    # mcp-remote refuses a plain http:// address unless told it is meant.
    result = run_client_config("claude-desktop", "--http", "http://10.0.0.5:8765/mcp")
    (server,) = json.loads(result.stdout)["mcpServers"].values()
    assert server["args"][:4] == ["-y", "mcp-remote", "http://10.0.0.5:8765/mcp", "--allow-http"]


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("ftp://example.com/mcp", "must be an http:// or https:// address"),
        ("https://user:secret@example.com/mcp", "must not carry a user name or password"),
        ("70000", "must be a port number from 0"),
    ],
)
def test_client_config_refuses_an_address_it_cannot_use(address: str, problem: str) -> None:
    result = run_client_config("cursor", "--http", address)
    assert result.returncode == 2
    assert result.stdout == ""
    assert problem in result.stderr


def test_client_config_refuses_an_unknown_client() -> None:
    unknown = run_client_config("zed")
    assert unknown.returncode == 2
    assert "argument client: invalid choice: 'zed' (choose from" in unknown.stderr
    assert all(client in unknown.stderr for client in CLIENTS)


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        (
            ["serve", "--http", "0", "--no-browser"],
            r"provide-choice: MCP server at (http://127\.0\.0\.1:(\d+))/mcp; .*\.",
        ),
        (
            ["inbox", "--port", "0", "--no-browser"],
            r"provide-choice inbox: inbox at (http://127\.0\.0\.1:(\d+))/\?token=[\w-]+ \(Ctrl-C stops it\)",
        ),
    ],
)
def test_every_server_prints_the_address_it_serves_once_on_stderr(
    arguments: list[str], line: str, home: Path
) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "provide_choice", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        found = re.fullmatch(line, server.stderr.readline().strip())
        assert found
        assert int(found.group(2)) != 0
        with socket.create_connection(("127.0.0.1", int(found.group(2))), timeout=10):
            pass  # the address printed is the one it listens on
    finally:
        server.terminate()
        stdout, stderr = server.communicate(timeout=20)
    assert re.search(line, stderr) is None, "printed once"
    assert stdout == ""


def test_ask_and_client_config_never_load_the_mcp_sdk() -> None:
    code = (
        "import sys, provide_choice.__main__, provide_choice._server._ask, "
        "provide_choice._server._client_config\n"
        "print(sorted(name for name in ('mcp', 'mcp_types', 'fastapi') if name in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert loaded.stdout.strip() == "[]"
