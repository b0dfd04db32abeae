"""`provide-choice client-config`: what to paste into an MCP client so that it starts this server.

Each client keeps its servers in a place and a shape of its own: Claude Code adds one with a
command, Claude Desktop and Cursor read an `mcpServers` object, VS Code a `servers` object that names
the transport. The command is the absolute path of this installation's `provide-choice`: a client
starts its servers without the person's shell, so neither `PATH` nor an activated virtual
environment can be counted on.
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

from provide_choice._web._local_http import HOST

ClientName = Literal["claude-code", "claude-desktop", "cursor", "vscode"]
CLIENTS: tuple[ClientName, ...] = get_args(ClientName)
SERVER_NAME = "provide-choice"
SCRIPT = "provide-choice"


class ClientConfigError(ValueError):
    """A configuration that cannot be made for this client; the message says what works."""


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


def client_config(client: ClientName, http_port: int | None = None) -> ClientConfig:
    """What `client` needs to start this server (or, with `http_port`, to reach the one that
    `provide-choice serve --http PORT` runs)."""
    url = None if http_port is None else f"http://{HOST}:{http_port}/mcp"
    return _MAKERS[client](server_command(), url)


def _claude_code(command: list[str], url: str | None) -> ClientConfig:
    added = ["--transport", "http", SERVER_NAME, url] if url else [SERVER_NAME, "--", *command]
    return ClientConfig(
        shlex.join(["claude", "mcp", "add", *added]),
        "Run this command in the project where you use Claude Code; add --scope user after "
        "`add` to have it in every project. `claude mcp list` shows it.",
    )


def _claude_desktop(command: list[str], url: str | None) -> ClientConfig:
    if url is not None:
        raise ClientConfigError(
            "Claude Desktop starts the servers in its file itself, over stdio; leave out --http"
        )
    return ClientConfig(
        _json({"mcpServers": {SERVER_NAME: _stdio(command)}}),
        f"Merge this into {_claude_desktop_file()}; Settings > Developer > Edit Config opens "
        "it. Keep the servers already under mcpServers, then restart Claude Desktop.",
    )


def _cursor(command: list[str], url: str | None) -> ClientConfig:
    server = {"url": url} if url else _stdio(command)
    return ClientConfig(
        _json({"mcpServers": {SERVER_NAME: server}}),
        f"Merge this into {Path.home() / '.cursor' / 'mcp.json'} for every project, or into "
        ".cursor/mcp.json in one project (keep the servers already under mcpServers).",
    )


def _vscode(command: list[str], url: str | None) -> ClientConfig:
    server = {"type": "http", "url": url} if url else {"type": "stdio", **_stdio(command)}
    return ClientConfig(
        _json({"servers": {SERVER_NAME: server}}),
        "Merge this into .vscode/mcp.json in your workspace, or for every workspace into the "
        f"file that the command `MCP: Open User Configuration` opens ({_vscode_user_file()}); "
        "keep the servers already under servers.",
    )


_MAKERS: dict[ClientName, Callable[[list[str], str | None], ClientConfig]] = {
    "claude-code": _claude_code,
    "claude-desktop": _claude_desktop,
    "cursor": _cursor,
    "vscode": _vscode,
}


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
