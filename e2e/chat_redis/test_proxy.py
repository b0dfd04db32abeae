"""The README's nginx example, as written, in front of two instances: the chat works through it
(pages and NiceGUI's websocket), and when the instance a browser sticks to is killed, the browser
lands on the other one with the whole conversation, and goes on there.

It needs nginx (Debian's `nginx-light` will do); without one it is skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_harness import log, send_when_ready
from markdown_it import MarkdownIt
from model_server import ModelServer, Reply
from playwright.async_api import Page, expect
from ports import free_port
from redis_chat import instance
from redis_server import RedisServer

from chat_ui._streaming_reply import DRAFT_STALE

pytestmark = pytest.mark.asyncio(loop_scope="module")

README = Path(__file__).resolve().parents[2] / "README.md"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
MODELS = ("model-one", "model-two")
WAIT = 30_000  # ms: the page's reconnect, then its reload on the other instance


def readme_nginx_config() -> str:
    tokens = MarkdownIt("commonmark").parse(README.read_text(encoding="utf-8"))
    (block,) = [
        token.content for token in tokens if token.type == "fence" and token.info == "nginx"
    ]
    return block


def listens(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.fixture
def proxied(
    redis_server: RedisServer, model_server: ModelServer, tmp_path: Path
) -> Iterator[tuple[str, dict[str, subprocess.Popen[bytes]]]]:
    """nginx on a free port with the README's configuration, in front of two instances on their
    own ports: its URL, and each instance's process by the model it names."""
    if NGINX is None:
        pytest.skip("needs nginx (Debian's nginx-light package) for the README's proxy example")
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    with (
        instance(redis_server, model_server, tmp_path / "one", MODELS[0]) as one,
        instance(redis_server, model_server, tmp_path / "two", MODELS[1]) as two,
    ):
        port = free_port()
        config = readme_nginx_config()
        config = config.replace("127.0.0.1:8081", one.url.removeprefix("http://").rstrip("/"))
        config = config.replace("127.0.0.1:8082", two.url.removeprefix("http://").rstrip("/"))
        config = re.sub(r"listen 8080;", f"listen 127.0.0.1:{port};", config)
        temporary = " ".join(
            f"{kind}_temp_path {tmp_path / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (tmp_path / "nginx.conf").write_text(
            f"daemon off; worker_processes 1; pid {tmp_path / 'nginx.pid'}; events {{}}\n"
            f"http {{ access_log off; {temporary}\n{config}\n}}\n"
        )
        nginx = subprocess.Popen(
            [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", "stderr"],
            stderr=(tmp_path / "nginx.log").open("wb"),
        )
        try:
            deadline = time.monotonic() + 10
            while not listens(port):
                assert nginx.poll() is None, (tmp_path / "nginx.log").read_text()
                assert time.monotonic() < deadline, "nginx did not listen within 10 s"
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}/", {MODELS[0]: one.process, MODELS[1]: two.process}
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


async def serving_model(page: Page) -> str:
    """Which instance drew the page: its header names its model."""
    subtitle = await page.locator(".chat-subtitle").inner_text()
    return subtitle.removeprefix("model: openai:")


async def test_through_the_readme_s_nginx_a_killed_instance_hands_the_chat_to_the_other(
    page: Page,
    proxied: tuple[str, dict[str, subprocess.Popen[bytes]]],
    model_server: ModelServer,
) -> None:
    url, processes = proxied
    await page.goto(url)
    await expect(log(page)).to_contain_text("You are chatting with")
    first = await serving_model(page)
    model_server.replies.append(Reply(text=["Answered before the failover."]))
    await send_when_ready(page, "Before the failover")
    await expect(log(page)).to_contain_text("Answered before the failover.")
    assert model_server.requests[-1]["model"] == first, "the websocket went through the proxy"
    await expect(page.get_by_role("button", name="Send")).to_be_enabled()  # the reply has ended

    processes[first].send_signal(signal.SIGKILL)
    processes[first].wait(timeout=10)
    (other,) = set(MODELS) - {first}
    await expect(page.locator(".chat-subtitle")).to_have_text(
        f"model: openai:{other}", timeout=WAIT
    )
    await expect(log(page)).to_contain_text("Answered before the failover.")
    # A kill that beat the reply's last save leaves its draft, waited for until it is stale.
    await expect(page.get_by_role("button", name="Send")).to_be_enabled(
        timeout=(DRAFT_STALE + 5) * 1000
    )
    model_server.replies.append(Reply(text=["Answered after the failover."]))
    await send_when_ready(page, "After the failover")
    await expect(log(page)).to_contain_text("Answered after the failover.")
    assert model_server.requests[-1]["model"] == other
