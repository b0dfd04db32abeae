"""`serve --http --public-url URL`: every address the server gives out is under the public URL, its
pages and hand-offs are served on the server's own port, and on every route, `/mcp` included, the
Host and Origin checks take the public URL's host and keep refusing others. The requests here reach
the server as a TLS proxy in front of it would pass them on: to its port, with the public Host, the
proxy having stripped the public URL's path."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from mcp_servers import TOKEN, call, http_client, start_http_server
from ports import free_port
from remote_instances import QUESTION

from provide_choice._bridge._site import PublicUrl, is_loopback, parse_public_url

PUBLIC = "https://choices.example.com/team"
PUBLIC_HOST = "choices.example.com"


@pytest.fixture
def server(home: Path) -> Iterator[str]:
    """The server's own address (where the proxy sends requests), with `PUBLIC` as its public URL."""
    arguments = ["serve", "--no-browser", "--max-wait", "1", "--public-url", PUBLIC]
    port = free_port()
    process, url = start_http_server(arguments, home, port=port)
    assert url == f"{PUBLIC}/mcp"  # the address it says it is at
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(10)


async def test_addresses_are_under_the_public_url_and_its_host_is_taken_on_every_route(
    server: str,
) -> None:
    public = {"Host": PUBLIC_HOST}
    async with http_client(f"{server}/mcp", headers=public) as client:
        pending = await call(client, QUESTION)
        handed_off = await call(client, {**QUESTION, "transport": "terminal"})
    assert pending["action_status"] == "pending"
    page = pending["selection"]["url"]
    assert re.fullmatch(rf"{PUBLIC}/choice/[0-9a-f]{{48}}", page)
    command = handed_off["selection"]["summary"]
    assert command.endswith(f" --url {PUBLIC}")
    path = page.removeprefix(PUBLIC)  # what the proxy sends on
    origin = {"Origin": "https://choices.example.com"}
    async with httpx.AsyncClient(base_url=server) as http:
        shown = await http.get(path, headers=public)
        assert shown.status_code == 200
        assert QUESTION["title"] in shown.text
        foreign = {"Origin": "https://evil.example"}
        token = {"Authorization": f"Bearer {TOKEN}"}
        for refused in [
            await http.get(path, headers={"Host": "evil.example"}),
            await http.get(path, headers={"Host": f"{PUBLIC_HOST}:8443"}),
            await http.post(f"{path}/draft", json={}, headers=public | foreign),
            await http.post("/mcp", json={}, headers={"Host": "evil.example"} | token),
            await http.post("/mcp", json={}, headers=public | foreign | token),
        ]:
            assert refused.status_code == 403, (refused.request.url, refused.request.headers)
        answered = await http.post(
            f"{path}/answer",
            json={"kind": "answered", "selected_ids": ["web"]},
            headers=public | origin,
        )
        assert answered.status_code == 200, answered.text
    async with http_client(f"{server}/mcp", headers=public) as client:
        polled = await call(client, {"session_id": pending["selection"]["session_id"]})
    assert polled["action_status"] == "selected"
    assert polled["selection"]["selected_ids"] == ["web"]
    assert polled["selection"]["url"] == page


@pytest.mark.parametrize(
    ("text", "base", "hosts", "origin"),
    [
        (
            "https://Choices.Example.com/",
            "https://choices.example.com",
            {"choices.example.com", "choices.example.com:443"},
            "https://choices.example.com",
        ),
        (
            "http://10.0.0.5:8080/answers/",
            "http://10.0.0.5:8080/answers",
            {"10.0.0.5:8080"},
            "http://10.0.0.5:8080",
        ),
        (
            "http://[::1]:8765",
            "http://[::1]:8765",
            {"[::1]:8765"},
            "http://[::1]:8765",
        ),
    ],
)
def test_a_public_url_says_its_base_its_hosts_and_its_origin(
    text: str, base: str, hosts: set[str], origin: str
) -> None:
    public = parse_public_url(text)
    assert isinstance(public, PublicUrl)
    assert public.base == base
    assert public.site().hosts == hosts
    assert public.site().origins == {origin}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("choices.example.com", "must be an http:// or https:// address"),
        ("ftp://choices.example.com", "must be an http:// or https:// address"),
        ("https://user:secret@choices.example.com", "must not carry a user name or password"),
        ("https://choices.example.com/?a=1", "must have no query (?) or fragment (#)"),
        ("https://choices.example.com:99999", "must be an http:// or https:// address"),
    ],
)
def test_a_public_url_that_cannot_be_one_says_why(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        parse_public_url(text)


def test_loopback_is_this_machine_alone() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "localhost", "::1", "127.8.0.1"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "10.0.0.5", "choices.example.com"]))
