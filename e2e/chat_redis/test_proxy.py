"""The documented Redis example, as written: its two `--agent demo` instances and its nginx
configuration in front of them share a conversation; and behind the same nginx, when the instance a
browser sticks to is killed, the browser lands on the other one with the whole conversation, and
goes on there.

It needs nginx (Debian's `nginx-light` will do); without one it is skipped, saying so.
"""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from chat_harness import log, send_when_ready
from long_running import LongRunning
from model_server import ModelServer, Reply
from nginx import documented_blocks, documented_nginx_config, running_nginx
from playwright.async_api import Page, expect
from ports import free_port
from redis_chat import instance
from redis_server import RedisServer

from chat_ui._session._streaming_reply import DRAFT_STALE

pytestmark = pytest.mark.asyncio(loop_scope="module")

MODELS = ("model-one", "model-two")
WAIT = 30_000  # ms: the page's reconnect, then its reload on the other instance
DOCUMENTED_PORTS = ("127.0.0.1:8081", "127.0.0.1:8082")
DOCUMENTED_REDIS = "redis://127.0.0.1:6379/0"


@contextmanager
def documented_nginx(addresses: tuple[str, str], tmp_path: Path) -> Iterator[str]:
    """nginx with the documented configuration on a free port, in front of the instances at
    `addresses` (host:port): its URL."""
    servers = dict(zip(DOCUMENTED_PORTS, addresses, strict=True))
    config = documented_nginx_config("choices_chat")
    with running_nginx(config, tmp_path, free_port(), servers) as url:
        yield f"{url}/"


def address(url: str) -> str:
    return url.removeprefix("http://").rstrip("/")


@pytest.fixture
def proxied(
    redis_server: RedisServer, model_server: ModelServer, tmp_path: Path
) -> Iterator[tuple[str, dict[str, subprocess.Popen[bytes]]]]:
    """The documented nginx in front of two instances with a model each: its URL, and each
    instance's process by the model it names."""
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
    with (
        instance(redis_server, model_server, tmp_path / "one", MODELS[0]) as one,
        instance(redis_server, model_server, tmp_path / "two", MODELS[1]) as two,
        documented_nginx((address(one.url), address(two.url)), tmp_path) as url,
    ):
        yield url, {MODELS[0]: one.process, MODELS[1]: two.process}


@contextmanager
def documented_instances(redis_server: RedisServer, tmp_path: Path) -> Iterator[list[str]]:
    """The documented command lines that start the demo on Redis, run as written (started at once)
    on the test's Redis and free ports: their URLs. Stopped at the end, as a person stops them."""
    lines = [line for block in documented_blocks("sh") for line in block.splitlines()]
    started = []
    for number, line in enumerate(line for line in lines if "--agent demo --redis" in line):
        words = shlex.split(line)
        variables = {}
        while "=" in words[0]:
            name, _, value = words.pop(0).partition("=")
            variables[name] = value
        words = [str(free_port()) if word in ("8081", "8082") else word for word in words]
        words = [redis_server.url if word == DOCUMENTED_REDIS else word for word in words]
        command = LongRunning(tuple(words), r"the chat is at (\S+) ", "choices-chat")
        started.append((command, command.launch(tmp_path / str(number), variables)))
    try:
        printed = [command.ready_line(process) for command, process in started]
        yield [re.findall(r"the chat is at (\S+) ", text)[-1] for text in printed]
    finally:
        for _command, process in started:
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=30)


async def test_the_documented_demo_instances_behind_its_nginx_share_the_conversation(
    page: Page, redis_server: RedisServer, tmp_path: Path
) -> None:
    with documented_instances(redis_server, tmp_path) as urls:
        assert len(urls) == 2, "the documentation starts two instances of the demo"
        with documented_nginx((address(urls[0]), address(urls[1])), tmp_path) as proxy:
            await page.goto(proxy)
            await page.get_by_role("button", name="A side project").click()
            follow_up = page.get_by_role("group", name="What kind of project?")
            await expect(follow_up).to_be_visible()
        for url in urls:  # whichever the proxy chose: both instances read it from Redis
            await page.goto(url)
            await expect(log(page)).to_contain_text("Let's plan a side project")
            await expect(follow_up).to_be_visible()


async def serving_model(page: Page) -> str:
    """Which instance drew the page: its header names its model."""
    subtitle = await page.locator(".chat-subtitle").inner_text()
    return subtitle.removeprefix("model: openai:")


async def test_through_the_documented_nginx_a_killed_instance_hands_the_chat_to_the_other(
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
