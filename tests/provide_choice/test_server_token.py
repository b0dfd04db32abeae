"""The token of `provide-choice serve --http`: where it comes from, how it is kept, and that the MCP
endpoint takes nothing without it (401 with `WWW-Authenticate: Bearer`), through a real server and
the MCP SDK's own client."""

from __future__ import annotations

import re
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp_servers import environment, http_client, start_http_server
from provide_choice_harness import COMMAND

from provide_choice._server._token import TokenProblem, server_token

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
MADE = re.compile(
    r"provide-choice: made this server's token, in (\S+) \(readable by you alone; "
    r"\$PROVIDE_CHOICE_TOKEN overrides it\)\. Every MCP client sends it; for Claude Code:\n"
    r"  claude mcp add --transport http provide-choice (\S+) --header "
    r"'Authorization: Bearer ([\w-]+)'\n"
)


def test_a_token_is_made_once_private_and_kept(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVIDE_CHOICE_TOKEN", raising=False)
    made = server_token()
    path = home / "server-token"
    assert made.made
    assert made.source == str(path)
    assert re.fullmatch(r"[\w-]{43}", made.value)  # 256 random bits
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    again = server_token()
    assert (again.value, again.made) == (made.value, False)
    monkeypatch.setenv("PROVIDE_CHOICE_TOKEN", "  shared-by-every-instance-behind-one-proxy  ")
    given = server_token()
    assert (given.value, given.source, given.made) == (
        "shared-by-every-instance-behind-one-proxy",
        "$PROVIDE_CHOICE_TOKEN",
        False,
    )


def test_a_token_file_others_may_read_is_refused_saying_what_to_do(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PROVIDE_CHOICE_TOKEN", raising=False)
    server_token()
    path = home / "server-token"
    path.chmod(0o644)
    with pytest.raises(TokenProblem) as refused:
        server_token()
    assert str(refused.value) == (
        f"{path} must be yours and readable by you alone (mode 600), and it has mode 644; run "
        f"`chmod 600 {path}` if nobody else has read it, or delete it to make a new token (and "
        "give every client the new one)"
    )


def test_a_token_that_cannot_go_in_a_header_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROVIDE_CHOICE_TOKEN", "two words")
    with pytest.raises(TokenProblem, match="visible ASCII characters without spaces"):
        server_token()


@pytest.fixture
def served(home: Path) -> Iterator[tuple[subprocess.Popen[str], str, dict[str, str]]]:
    """`serve --http 0` with no token given: it makes one."""
    variables = environment(home)
    del variables["PROVIDE_CHOICE_TOKEN"]
    server, url = start_http_server(["serve", "--no-browser"], home, variables)
    yield server, url, variables
    server.terminate()
    server.wait(10)


async def test_the_endpoint_takes_requests_only_with_the_token_it_printed_once(
    served: tuple[subprocess.Popen[str], str, dict[str, str]], home: Path
) -> None:
    server, url, variables = served
    assert server.stderr is not None
    said = server.stderr.readline() + server.stderr.readline()
    printed = MADE.match(said)
    assert printed, said
    path, endpoint, token = printed.groups()
    assert (path, endpoint) == (str(home / "server-token"), url)
    assert (home / "server-token").read_text() == token
    async with httpx.AsyncClient(headers={"Accept": "application/json, text/event-stream"}) as raw:
        for sent in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {token}"}):
            refused = await raw.post(url, json=INITIALIZE, headers=sent)
            assert refused.status_code == 401, sent
            assert refused.headers["WWW-Authenticate"] == "Bearer"
            assert "Authorization: Bearer <token>" in refused.json()["problems"][0]
        right = {"Authorization": f"Bearer {token}"}
        accepted = await raw.post(url, json=INITIALIZE, headers=right)
        assert accepted.status_code == 200, accepted.text
    async with http_client(url, token) as client:  # the SDK's client, with the header
        tools = await client.list_tools()
    assert {tool.name for tool in tools.tools} >= {"provide_choice", "present_choices"}
    server.terminate()
    server.wait(10)
    again, again_url = start_http_server(["serve", "--no-browser"], home, variables)
    try:
        assert again.stderr is not None
        async with http_client(again_url, token) as client:  # the same token, made no more
            await client.list_tools()
        again.terminate()
        assert "token" not in again.stderr.read()
    finally:
        again.kill()
        again.wait(10)


def test_without_a_token_only_on_loopback_saying_so(home: Path) -> None:
    server, url = start_http_server(["serve", "--no-browser", "--no-auth"], home)
    try:
        assert server.stderr is not None
        assert server.stderr.readline() == (
            "provide-choice: warning: --no-auth: any program on this machine can call this "
            "server's tools (ask the person questions in an agent's name) without a token\n"
        )
        listed = httpx.post(
            url, json=INITIALIZE, headers={"Accept": "application/json, text/event-stream"}
        )
        assert listed.status_code == 200
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (
            ["--host", "0.0.0.0", "--public-url", "https://choices.example.com"],
            "--no-auth is for a server only this machine reaches, and --host 0.0.0.0 listens for "
            "others: give clients the token instead (`provide-choice client-config CLIENT --http "
            "URL` prints it)",
        ),
        (
            ["--public-url", "https://choices.example.com"],
            "--no-auth is for a server only this machine reaches, and --public-url "
            "https://choices.example.com is reached from elsewhere: give clients the token "
            "instead (`provide-choice client-config CLIENT --http URL` prints it)",
        ),
    ],
)
def test_no_auth_on_a_server_reached_from_elsewhere_exits_2_in_one_line(
    options: list[str], problem: str, home: Path
) -> None:
    result = subprocess.run(
        [COMMAND, "serve", "--http", "0", "--no-auth", *options],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=environment(home),
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr == f"provide-choice serve: {problem}\n"
    assert not (home / "server-token").exists()
