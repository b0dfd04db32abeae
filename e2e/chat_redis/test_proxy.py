"""The README's nginx example, as written, in front of two instances: the chat works through it
(pages and NiceGUI's websocket), and when the instance a browser sticks to is killed, the browser
lands on the other one with the whole conversation, and goes on there.

It needs nginx (Debian's `nginx-light` will do); without one it is skipped, saying so.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from chat_harness import log, send_when_ready
from model_server import ModelServer, Reply
from nginx import readme_nginx_config, running_nginx
from playwright.async_api import Page, expect
from ports import free_port
from redis_chat import instance
from redis_server import RedisServer

from chat_ui._streaming_reply import DRAFT_STALE

pytestmark = pytest.mark.asyncio(loop_scope="module")

MODELS = ("model-one", "model-two")
WAIT = 30_000  # ms: the page's reconnect, then its reload on the other instance


@pytest.fixture
def proxied(
    redis_server: RedisServer, model_server: ModelServer, tmp_path: Path
) -> Iterator[tuple[str, dict[str, subprocess.Popen[bytes]]]]:
    """nginx on a free port with the README's configuration, in front of two instances on their
    own ports: its URL, and each instance's process by the model it names."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    with (
        instance(redis_server, model_server, tmp_path / "one", MODELS[0]) as one,
        instance(redis_server, model_server, tmp_path / "two", MODELS[1]) as two,
    ):
        servers = {
            "127.0.0.1:8081": one.url.removeprefix("http://").rstrip("/"),
            "127.0.0.1:8082": two.url.removeprefix("http://").rstrip("/"),
        }
        config = readme_nginx_config("choices_chat")
        with running_nginx(config, tmp_path, free_port(), servers) as url:
            yield f"{url}/", {MODELS[0]: one.process, MODELS[1]: two.process}


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
