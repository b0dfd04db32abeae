"""`provide-choice client-config`: what to paste into an MCP client so that it starts this server,
or reaches one that `provide-choice serve --http` runs (here or elsewhere).

Each client keeps its servers in a place and a shape of its own: Claude Code adds one with a
command, Claude Desktop and Cursor read an `mcpServers` object, VS Code a `servers` object that names
the transport. The command is the absolute path of this installation's `provide-choice`: a client
starts its servers without the person's shell, so neither `PATH` nor an activated virtual
environment can be counted on. Over HTTP, every client sends the server's token in an
`Authorization: Bearer` header: Claude Code with `--header`, Cursor and VS Code in `headers`, and
Claude Desktop, which starts stdio servers only, through `mcp-remote --header` (its token in an
environment variable, since some clients split arguments at spaces).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

ClientName = Literal["claude-code", "claude-desktop", "cursor", "vscode"]
CLIENTS: tuple[ClientName, ...] = get_args(ClientName)
SERVER_NAME = "provide-choice"
SCRIPT = "provide-choice"
AUTHORIZATION_VARIABLE = "PROVIDE_CHOICE_AUTHORIZATION"
"""The environment variable that carries the header's value to `mcp-remote` (Claude Desktop)."""


@dataclass(frozen=True)
class ClientConfig:
    """What to paste (a command, or JSON), and where it goes on this system."""

    text: str
    """The command to run, or the JSON to merge into the client's file: stdout, as it is."""
    where: str
    """Where it goes and what to do then, for the person (stderr, so stdout stays pasteable)."""


def server_command() -> list[str]:
    """How a client starts this installation's server: the `provide-choice` script beside this
    Python (a virtual environment's), else the one on `PATH`, resolved to an absolute path; when
    there is none (the source tree on the path), this Python running the package."""
    beside = Path(sys.executable).absolute().parent / (
        f"{SCRIPT}.exe" if os.name == "nt" else SCRIPT
    )
    script = str(beside) if beside.is_file() else shutil.which(SCRIPT)
    if script is None:
        return [str(Path(sys.executable).absolute()), "-m", "provide_choice", "serve"]
    return [str(Path(script).resolve()), "serve"]


@dataclass(frozen=True)
class Remote:
    """A server reached over HTTP: its MCP endpoint, and the token it takes."""

    url: str
    token: str

    @property
    def authorization(self) -> str:
        return f"Bearer {self.token}"


def client_config(client: ClientName, remote: Remote | None = None) -> ClientConfig:
    """What `client` needs to start this server (or, with `remote`, to reach the one that
    `provide-choice serve --http` runs at `remote.url`, with its token)."""
    return _MAKERS[client](server_command(), remote)


def _claude_code(command: list[str], remote: Remote | None) -> ClientConfig:
    added = (
        [SERVER_NAME, "--", *command]
        if remote is None
        else [
            "--transport",
            "http",
            SERVER_NAME,
            remote.url,
            "--header",
            f"Authorization: {remote.authorization}",
        ]
    )
    return ClientConfig(
        shlex.join(["claude", "mcp", "add", *added]),
        "Run this command in the project where you use Claude Code; add --scope user after "
        "`add` to have it in every project. `claude mcp list` shows it.",
    )


def _claude_desktop(command: list[str], remote: Remote | None) -> ClientConfig:
    server = _stdio(command) if remote is None else _through_mcp_remote(remote)
    return ClientConfig(
        _json({"mcpServers": {SERVER_NAME: server}}),
        f"Merge this into {_claude_desktop_file()}; Settings > Developer > Edit Config opens "
        "it. Keep the servers already under mcpServers, then restart Claude Desktop."
        + ("" if remote is None else " It starts mcp-remote with npx (Node.js 18 or later)."),
    )


def _through_mcp_remote(remote: Remote) -> dict[str, Any]:
    """Claude Desktop starts stdio servers only: `mcp-remote` (npm) is one that forwards to a
    server over HTTP, with the header. The header's value goes through an environment variable:
    some clients split arguments at spaces."""
    plain_http = ["--allow-http"] if remote.url.startswith("http:") else []
    arguments = ["-y", "mcp-remote", remote.url, *plain_http]
    return {
        "command": "npx",
        "args": [*arguments, "--header", f"Authorization:${{{AUTHORIZATION_VARIABLE}}}"],
        "env": {AUTHORIZATION_VARIABLE: remote.authorization},
    }


def _cursor(command: list[str], remote: Remote | None) -> ClientConfig:
    server = _stdio(command) if remote is None else {"url": remote.url, **_headers(remote)}
    return ClientConfig(
        _json({"mcpServers": {SERVER_NAME: server}}),
        f"Merge this into {Path.home() / '.cursor' / 'mcp.json'} for every project, or into "
        ".cursor/mcp.json in one project (keep the servers already under mcpServers).",
    )


def _vscode(command: list[str], remote: Remote | None) -> ClientConfig:
    server = (
        {"type": "stdio", **_stdio(command)}
        if remote is None
        else {"type": "http", "url": remote.url, **_headers(remote)}
    )
    return ClientConfig(
        _json({"servers": {SERVER_NAME: server}}),
        "Merge this into .vscode/mcp.json in your workspace, or for every workspace into the "
        f"file that the command `MCP: Open User Configuration` opens ({_vscode_user_file()}); "
        "keep the servers already under servers.",
    )


_MAKERS: dict[ClientName, Callable[[list[str], Remote | None], ClientConfig]] = {
    "claude-code": _claude_code,
    "claude-desktop": _claude_desktop,
    "cursor": _cursor,
    "vscode": _vscode,
}


def _headers(remote: Remote) -> dict[str, Any]:
    return {"headers": {"Authorization": remote.authorization}}


def _stdio(command: list[str]) -> dict[str, Any]:
    return {"command": command[0], "args": command[1:]}


def _json(config: dict[str, Any]) -> str:
    return json.dumps(config, indent=2)


def _claude_desktop_file() -> str:
    name = "claude_desktop_config.json"
    if sys.platform == "darwin":
        return str(Path.home() / "Library" / "Application Support" / "Claude" / name)
    if sys.platform == "win32":
        return str(Path(os.environ.get("APPDATA", Path.home())) / "Claude" / name)
    return (
        f"{name} (Claude Desktop has no Linux release: on macOS it is in ~/Library/Application "
        "Support/Claude/, on Windows in %APPDATA%\\Claude\\)"
    )


def _vscode_user_file() -> str:
    if sys.platform == "darwin":
        folder = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        folder = Path(os.environ.get("APPDATA", Path.home()))
    else:
        folder = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return str(folder / "Code" / "User" / "mcp.json")
